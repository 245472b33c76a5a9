"""One-line breakages of data references in real modules, judged by a real Odoo, and how well
``check`` predicts them (issue 31, "Data references").

    export DATAREFS_SRC=/path/to/extracted/modules      # real modules (OCA wheels' odoo/addons/*)
    export DATAREFS_CORPUS=/path/to/corpus              # cases.json, verdicts.json, logs: not in the checkout
    .venv/bin/python benchmarks/data_refs.py make --seed 3118 --modules a,b,c
    .venv/bin/python benchmarks/data_refs.py judge --template DB   # ASSISTA_TEST_ODOO_{BIN,PYTHON,CONF}
    .venv/bin/python benchmarks/data_refs.py measure [--odoo-path SRC]

``make`` finds, in each module's data files, the places each kind of reference is written (a
view's model, an action's res_model / binding_model_id, an access row's model_id:id /
group_id:id, a menu's action / parent / groups, groups= on a view node, %(xml_id)d, ref('...')
in an eval, a button's method) and breaks one per case (the name gets a suffix); each module also
gives a control (unchanged) that must install. Cases are split once, by module, into a
development half and a held-out half (``--seed``, recorded in cases.json). ``judge`` copies the
module with its change, clones ``--template`` (the dependencies installed), runs ``odoo-bin -i``,
records whether the module ended installed and the file:line Odoo's log names, then drops the
database. ``measure`` runs the static checks on each case and counts errors at the changed line
(or the log's file:line), per half, and errors on cases that install.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.odoo_log import parse_odoo_log

sys.path.insert(0, str(Path(__file__).resolve().parent))

from data_refs_sites import sites


def _env_path(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"set {name} (see the module docstring)")
    return Path(value)


def make(args: argparse.Namespace) -> int:
    src, corpus = _env_path("DATAREFS_SRC"), _env_path("DATAREFS_CORPUS")
    modules = sorted(args.modules.split(","))
    rnd = random.Random(args.seed)
    order = modules[:]
    rnd.shuffle(order)
    held = set(order[len(order) // 2 :])
    if args.split:  # a corpus's own split (benchmarks/corpus.py's split.json) instead of ours
        held = set(json.loads(Path(args.split).read_text(encoding="utf-8"))["held_out"])
    cases = []
    for module in modules:
        half = "held-out" if module in held else "dev"
        cases.append({"id": f"{module}--control", "module": module, "half": half, "kind": "control"})
        by_kind: dict[str, list[tuple[str, str, int, str, str]]] = {}
        for site in sites(src / module, frozenset(filter(None, args.kinds.split(",")))):
            by_kind.setdefault(site[0], []).append(site)
        kinds = sorted(by_kind)
        rnd.shuffle(kinds)
        for kind in kinds[: args.per_module]:
            _, rel, line, old, new = rnd.choice(by_kind[kind])
            cases.append(
                {
                    "id": f"{module}--{kind}",
                    "module": module,
                    "half": half,
                    "kind": kind,
                    "file": rel,
                    "line": line,
                    "old": old,
                    "new": new,
                }
            )
    corpus.mkdir(parents=True, exist_ok=True)
    split = f"by module, {args.split}" if args.split else "by module"
    payload = {"seed": args.seed, "split": split, "series": args.series, "cases": cases}
    (corpus / "cases.json").write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases ({sum(c['kind'] == 'control' for c in cases)} controls) in {corpus}")
    return 0


def _series() -> str:
    """The series the cases were made for (18.0 when cases.json does not say)."""
    raw = json.loads((_env_path("DATAREFS_CORPUS") / "cases.json").read_text(encoding="utf-8"))
    return str(raw.get("series", "18.0"))


def _cases() -> list[dict[str, object]]:
    raw = json.loads((_env_path("DATAREFS_CORPUS") / "cases.json").read_text(encoding="utf-8"))
    cases: list[dict[str, object]] = raw["cases"]
    return cases


def apply_case(case: dict[str, object], root: Path) -> None:
    module = str(case["module"])
    shutil.copytree(_env_path("DATAREFS_SRC") / module, root / module)
    if case["kind"] == "control":
        return
    path = root / module / str(case["file"])
    lines = path.read_text(encoding="utf-8").split("\n")
    number = int(str(case["line"]))
    if lines[number - 1] != case["old"]:
        raise ValueError(f"{case['id']}: line {number} is not the recorded one")
    lines[number - 1] = str(case["new"])
    path.write_text("\n".join(lines), encoding="utf-8")


# -- the real side -------------------------------------------------------------------------------


def judge(args: argparse.Namespace) -> int:
    corpus = _env_path("DATAREFS_CORPUS")
    verdicts_path = corpus / f"verdicts{args.worker}.json"  # one file per worker run in parallel
    verdicts = json.loads(verdicts_path.read_text(encoding="utf-8")) if verdicts_path.exists() else {}
    judged = _verdicts(corpus)
    logs = corpus / "logs"
    logs.mkdir(exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    for case in _cases():
        case_id = str(case["id"])
        if (only and case_id not in only) or (case_id in judged and not args.again):
            continue
        if args.half and case["half"] != args.half:
            continue
        if args.workers > 1 and zlib.crc32(case_id.encode()) % args.workers != int(args.worker or 0):
            continue
        verdicts[case_id] = _judge_case(case, args, logs)
        verdict = verdicts[case_id]
        print(case_id, verdict["fails"], verdict["log_file"], verdict["log_line"], flush=True)
        verdicts_path.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


def _judge_case(case: dict[str, object], args: argparse.Namespace, logs: Path) -> dict[str, object]:
    module = str(case["module"])
    with tempfile.TemporaryDirectory(prefix="datarefs-") as tmp:
        root = Path(tmp)
        apply_case(case, root)
        db = f"datarefs_j_{os.getpid()}_{module}"[:60]
        _psql(f'DROP DATABASE IF EXISTS "{db}"')
        _psql(f'CREATE DATABASE "{db}" TEMPLATE "{args.template}"')
        try:
            command = ["nice", "-n", "10", os.environ["ASSISTA_TEST_ODOO_PYTHON"]]
            command += [os.environ["ASSISTA_TEST_ODOO_BIN"], "-c", os.environ["ASSISTA_TEST_ODOO_CONF"]]
            command += ["-d", db, "-i", module, "--stop-after-init", "--without-demo=all", "--log-level=info"]
            command += [f"--addons-path={args.core_addons},{root}", f"--data-dir={args.data_dir}"]
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
            seconds = time.perf_counter() - started
            state = _psql(f"SELECT state FROM ir_module_module WHERE name = '{module}'", db).strip()
        finally:
            _psql(f'DROP DATABASE IF EXISTS "{db}"')
        log = done.stdout + done.stderr
        report = parse_odoo_log(log, roots=[root], modules=[module])
    errors = [f for f in report.findings if f.severity == "error"]
    first = errors[0] if errors else None
    (logs / f"{case['id']}.log").write_text(log, encoding="utf-8")
    return {
        "exit": done.returncode,
        "state": state,
        "fails": done.returncode != 0 or state != "installed",
        "log_file": first.path if first else "",
        "log_line": first.line if first else None,
        "log_message": first.message[:300] if first else "",
        "seconds": round(seconds, 1),
        "series": _series(),
    }


def _fails(verdicts: dict[str, dict[str, object]], case: dict[str, object]) -> bool:
    return bool(verdicts.get(str(case["id"]), {}).get("fails"))


def _verdicts(corpus: Path) -> dict[str, dict[str, object]]:
    merged: dict[str, dict[str, object]] = {}
    for path in sorted(corpus.glob("verdicts*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def _psql(sql: str, db: str = "postgres") -> str:
    command = ["psql", "-h", "127.0.0.1", "-U", "odoo", "-d", db, "-tAc", sql]
    env = {"PGPASSWORD": os.environ.get("PGPASSWORD", "odoo"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False).stdout


# -- the static side -----------------------------------------------------------------------------


def static_errors(case: dict[str, object], odoo_path: Path | None, work: Path) -> list[Finding]:
    root = work / "addons"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    apply_case(case, root)
    readonly = [odoo_path / "odoo" / "addons", odoo_path / "addons"] if odoo_path else []
    project = load_project([root], readonly, odoo_path=odoo_path, cache_dir=work / "cache")
    project.series = _series()
    addons = [project.addon_set.get(str(case["module"]))]
    run = lint_addons_sync(project, addons, ["static"], cache=LintCache(None), digests=FileDigests())
    return [f for f in run.findings if f.severity == "error"]


def measure(args: argparse.Namespace) -> int:
    corpus = _env_path("DATAREFS_CORPUS")
    verdicts = _verdicts(corpus)
    odoo_path = Path(args.odoo_path) if args.odoo_path else None
    halves = [h for h in ("dev", "held-out") if not args.half or h == args.half]
    tally: dict[str, dict[str, list[str]]] = {h: {"fails": [], "caught": [], "false": []} for h in halves}
    # A module whose unchanged copy does not install on the lab (written for a later 18.0) says
    # nothing about its breakages: its cases are left out, and counted.
    broken = {str(c["module"]) for c in _cases() if c["kind"] == "control" and _fails(verdicts, c)}
    hung: list[str] = []
    with tempfile.TemporaryDirectory(prefix="datarefs-measure-") as tmp:
        for case in _cases():
            verdict = verdicts.get(str(case["id"]))
            if verdict is None or case["half"] not in halves or case["module"] in broken:
                continue
            if int(str(verdict["exit"])) < 0:  # killed: Odoo hung (a lock between its own cursors)
                hung.append(str(case["id"]))
                continue
            errors = static_errors(case, odoo_path, Path(tmp))
            places = {(f"{case['module']}/{case.get('file')}", case.get("line"))}
            places.add((str(verdict["log_file"]), verdict["log_line"]))
            hit = any((f.path, f.line) in places for f in errors)
            said = " ".join(f"{f.code}@{f.path}:{f.line}" for f in errors)
            row = tally[str(case["half"])]
            if verdict["fails"]:
                row["fails"].append(str(case["id"]))
                if hit:
                    row["caught"].append(str(case["id"]))
            elif errors:
                row["false"].append(str(case["id"]))
            mark = ("caught" if hit else "missed") if verdict["fails"] else ("FALSE" if errors else "ok")
            real = "fails" if verdict["fails"] else "installs"
            print(f"{case['half']:8} {case['id']!s:60} {real:8} {mark:6} {said}", flush=True)
    source = f"with source {odoo_path}" if odoo_path else "without an Odoo source"
    print(f"left out: {len(broken)} modules whose unchanged copy does not install: {sorted(broken)}")
    print(f"left out: {len(hung)} cases whose install hung and was killed: {hung}")
    for half, row in tally.items():
        print(
            f"{half}: {len(row['caught'])}/{len(row['fails'])} install failures caught as errors at the "
            f"right file:line; errors on cases that install: {len(row['false'])} {row['false']} ({source})"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    sub = parser.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--seed", type=int, required=True)
    mk.add_argument("--modules", required=True, help="comma-separated module names under DATAREFS_SRC")
    mk.add_argument("--per-module", type=int, default=3)
    mk.add_argument("--kinds", default="", help="comma-separated kinds to break (default: every kind)")
    mk.add_argument("--series", default="18.0", help="the series of the modules (recorded in cases.json)")
    mk.add_argument("--split", default="", help="a corpus's split.json: its held_out modules are ours")
    jd = sub.add_parser("judge")
    jd.add_argument("--template", required=True)
    jd.add_argument("--core-addons", required=True, help="Odoo's addons folders, comma-separated")
    jd.add_argument("--data-dir", required=True, help="a data folder of your own (filestore)")
    jd.add_argument("--only", default="")
    jd.add_argument("--again", action="store_true")
    jd.add_argument("--half", default="", choices=["", "dev", "held-out"])
    jd.add_argument("--workers", type=int, default=1, help="cases are dealt to this many workers")
    jd.add_argument("--worker", default="", help="this worker's number (0..workers-1)")
    ms = sub.add_parser("measure")
    ms.add_argument("--odoo-path", default="")
    ms.add_argument("--half", default="", choices=["", "dev", "held-out"])
    args = parser.parse_args(argv)
    return {"make": make, "judge": judge, "measure": measure}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
