"""The judge corpus of one-line breakages: real install verdicts, and how well ``check`` predicts them.

    # judge: install every case with a real Odoo (writes fixtures/orm_breakages/verdicts.json)
    .venv/bin/python benchmarks/orm_breakages.py judge --odoo-bin SRC/odoo-bin --python VENV/bin/python \\
        --config odoo.conf --template DB
    # measure: the static side, without and with an Odoo source (prints the table and the figures)
    .venv/bin/python benchmarks/orm_breakages.py measure [--odoo-path SRC]

A case is a module of ``fixtures/orm_breakages/modules`` and one change (``old`` -> ``new``, found
exactly once in ``file``); controls change nothing or change something that installs. The judge
clones ``--template`` (a database with the modules' dependencies installed), runs
``odoo-bin -i <module> --stop-after-init`` on the clone, and records the exit code, whether the
module ended up installed (``ir_module_module.state``: exit 0 alone proves nothing) and the
failing file:line that our Odoo log parser reads from the log.

A prediction is right when ``check`` reports an error on the changed line or at the file:line
the log names. Targets: with a source >= 90 % of the real failures, without >= 70 %,
and no error on any case that installs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.odoo_log import parse_odoo_log

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "orm_breakages"
CASES = CORPUS / "cases.json"
VERDICTS = CORPUS / "verdicts.json"
MODULES = CORPUS / "modules"


@dataclass(frozen=True)
class Case:
    id: str
    module: str
    file: str
    old: str
    new: str

    @property
    def control(self) -> bool:
        return self.id.startswith("control")


def load_cases() -> list[Case]:
    return [Case(**raw) for raw in json.loads(CASES.read_text(encoding="utf-8"))]


def apply_case(case: Case, root: Path) -> int | None:
    """Copy the case's module under ``root`` with its change; the changed line (None: no change)."""
    target = root / case.module
    shutil.copytree(MODULES / case.module, target)
    if not case.file:
        return None
    path = target / case.file
    text = path.read_text(encoding="utf-8")
    if text.count(case.old) != 1:
        raise ValueError(f"{case.id}: {case.old!r} is not found exactly once in {case.file}")
    start = text.index(case.old)
    path.write_text(text.replace(case.old, case.new), encoding="utf-8")
    old_lines, new_lines = case.old.splitlines(), case.new.splitlines()
    offset = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=False)) if a != b), 0)
    return text[:start].count("\n") + 1 + offset


# -- the static side -----------------------------------------------------------------------------


def static_errors(case: Case, odoo_path: Path | None) -> tuple[int | None, list[Finding]]:
    """(changed line, the static check's errors) for one case, in the one case folder (the
    index cache is keyed by the roots: the same folder reads the Odoo source once)."""
    root = _ROOT / "addons"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    line = apply_case(case, root)
    readonly = [odoo_path / "odoo" / "addons", odoo_path / "addons"] if odoo_path else []
    project = load_project([root], readonly, odoo_path=odoo_path, cache_dir=_ROOT / "cache")
    addons = [project.addon_set.get(case.module)]
    run = lint_addons_sync(project, addons, ["static"], cache=LintCache(None), digests=FileDigests())
    errors = [f for f in run.findings if f.severity == "error"]
    return line, errors


_ROOT = Path(tempfile.gettempdir())  # set by measure() to a folder of its own


def predicted(case: Case, verdict: dict[str, object], line: int | None, errors: list[Finding]) -> bool:
    """An error on the changed line, or at the file:line the log names."""
    places = {(f"{case.module}/{case.file}", line), (verdict.get("log_file"), verdict.get("log_line"))}
    return any((f.path, f.line) in places for f in errors if f.line is not None)


def measure(odoo_path: Path | None) -> dict[str, object]:
    global _ROOT
    verdicts = json.loads(VERDICTS.read_text(encoding="utf-8"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="orm-cases-") as tmp:
        _ROOT = Path(tmp)
        for case in load_cases():
            rows.append(_row(case, verdicts[case.id], odoo_path))
    failing = [r for r in rows if r["fails"]]
    hits = [r for r in failing if r["predicted"]]
    false_errors = [r for r in rows if not r["fails"] and r["errors"]]
    return {
        "rows": rows,
        "failing": len(failing),
        "predicted": len(hits),
        "share": len(hits) / len(failing) if failing else 1.0,
        "false_errors": [r["id"] for r in false_errors],
    }


def _row(case: Case, verdict: dict[str, object], odoo_path: Path | None) -> dict[str, object]:
    line, errors = static_errors(case, odoo_path)
    return {
        "id": case.id,
        "fails": verdict["fails"],
        "predicted": predicted(case, verdict, line, errors),
        "errors": [f"{f.code}@{f.path}:{f.line}" for f in errors],
    }


# -- the real side -------------------------------------------------------------------------------


def judge_case(case: Case, args: argparse.Namespace, work: Path) -> dict[str, object]:
    root = work / case.id
    root.mkdir()
    line = apply_case(case, root)
    db = f"orm_judge_{case.id.replace('-', '_')}"[:60]
    _psql(args, f'DROP DATABASE IF EXISTS "{db}"')
    _psql(args, f'CREATE DATABASE "{db}" TEMPLATE "{args.template}"')
    try:
        command = [args.python, args.odoo_bin, "-c", args.config, "-d", db, "-i", case.module]
        command += ["--stop-after-init", "--without-demo=all", "--log-level=info"]
        command += [f"--addons-path={args.core_addons},{root}"]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        seconds = time.perf_counter() - started
        state = _psql(args, f"SELECT state FROM ir_module_module WHERE name = '{case.module}'", db).strip()
    finally:
        _psql(args, f'DROP DATABASE IF EXISTS "{db}"')
    log = done.stdout + done.stderr
    report = parse_odoo_log(log, roots=[root], modules=[case.module])
    errors = [f for f in report.findings if f.severity == "error"]
    first = errors[0] if errors else None
    (work / f"{case.id}.log").write_text(log, encoding="utf-8")
    return {
        "exit": done.returncode,
        "state": state,
        "fails": done.returncode != 0 or state != "installed",
        "changed_line": line,
        "log_file": first.path if first else "",
        "log_line": first.line if first else None,
        "log_message": first.message[:300] if first else "",
        "seconds": round(seconds, 1),
        "series": "18.0",
    }


def _psql(args: argparse.Namespace, sql: str, db: str = "postgres") -> str:
    command = ["psql", "-h", args.db_host, "-U", args.db_user, "-d", db, "-tAc", sql]
    env = {"PGPASSWORD": args.db_password, "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False).stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    judge = sub.add_parser("judge")
    judge.add_argument("--odoo-bin", required=True)
    judge.add_argument("--python", default=sys.executable)
    judge.add_argument("--config", required=True)
    judge.add_argument("--core-addons", required=True, help="Odoo's addons folders, comma-separated")
    judge.add_argument("--template", required=True)
    judge.add_argument("--db-host", default="127.0.0.1")
    judge.add_argument("--db-user", default="odoo")
    judge.add_argument("--db-password", default="odoo")
    judge.add_argument("--only", default="", help="comma-separated case ids")
    judge.add_argument("--logs", default="", help="keep the logs in this folder")
    meas = sub.add_parser("measure")
    meas.add_argument("--odoo-path", default="")
    args = parser.parse_args(argv)
    if args.command == "judge":
        return _judge(args)
    started = time.perf_counter()
    result = measure(Path(args.odoo_path) if args.odoo_path else None)
    seconds = time.perf_counter() - started
    for row in result["rows"]:  # type: ignore[attr-defined]
        mark = "error" if row["predicted"] else ("-" if not row["errors"] else "elsewhere")
        print(
            f"{row['id']:36} {'fails' if row['fails'] else 'installs':8} {mark:9} {' '.join(row['errors'])}"
        )
    source = f"with source {args.odoo_path}" if args.odoo_path else "without an Odoo source"
    print(
        f"{source}: {result['predicted']}/{result['failing']} real failures predicted as errors at the "
        f"right file:line ({result['share']:.0%}); errors on cases that install: {result['false_errors']}; "
        f"{seconds:.1f}s"
    )
    return 0


def _judge(args: argparse.Namespace) -> int:
    only = set(filter(None, args.only.split(",")))
    verdicts = json.loads(VERDICTS.read_text(encoding="utf-8")) if VERDICTS.exists() else {}
    with tempfile.TemporaryDirectory(prefix="orm-judge-") as tmp:
        work = Path(args.logs) if args.logs else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for case in load_cases():
            if only and case.id not in only:
                continue
            verdict = judge_case(case, args, work)
            verdicts[case.id] = verdict
            print(
                case.id,
                verdict["exit"],
                verdict["state"],
                verdict["log_file"],
                verdict["log_line"],
                flush=True,
            )
            VERDICTS.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
