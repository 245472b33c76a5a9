"""Precision of the gate on modules nobody here used: ``check --checks static`` over a corpus half
made by ``benchmarks/corpus.py``, every error judged by installing the module on a real Odoo.

    usage: python benchmarks/check_precision.py (run|judge|report) --series 18.0 [--corpus DIR] ...

    # errors of one half, with the tool of a checkout (its venv's python, or PYTHONPATH=<checkout>)
    ASSISTA_CORPUS=/somewhere/corpus nice -n 10 python benchmarks/check_precision.py run --series 18.0 \\
        --half dev --label after --python .venv/bin/python [--tree OTHER_CHECKOUT] [--odoo-path SRC]
    # install modules on a real Odoo of the series, a fresh database each, dropped after
    ASSISTA_BENCH_ODOO_BIN=.../odoo-bin ASSISTA_BENCH_ODOO_PYTHON=.../python \\
    ASSISTA_BENCH_ODOO_ADDONS=.../odoo/addons,.../addons PGHOST=127.0.0.1 PGUSER=odoo PGPASSWORD=odoo \\
    [ASSISTA_BENCH_TEMPLATE_DB=a_db_with_base ASSISTA_BENCH_DB_PREFIX=me_judge] \\
        nice -n 10 python benchmarks/check_precision.py judge --series 18.0 MODULE... [--demo]
    # errors per 1,000 modules, per half and code, false (the module installs) vs true (it fails)
    ASSISTA_CORPUS=... python benchmarks/check_precision.py report --series 18.0 --label after
    # the findings two runs of one half do not share (e.g. packs only vs with --odoo-path)
    ASSISTA_CORPUS=... python benchmarks/check_precision.py compare --series 18.0 --half dev \\
        --label packs --other source

``run`` checks the half's modules in one call, the series folder as addons root (so every
dependency in the set is found), without Odoo source and without cache, as a new user would, and
keeps the JSON report in ``<corpus>/results/<label>-<series>-<half>.json``. ``--odoo-path`` gives
the check an Odoo source of the series (its ``odoo/addons`` and ``addons``) instead of the bundled
pack alone: the two runs' findings should be the same. ``--tree`` runs the
tool from another checkout (e.g. a worktree of an older commit; read-only: no bytecode is written).
``judge`` installs each module with plain ``odoo-bin -i MODULE --stop-after-init`` in a new
database, its addons path the core roots and a private folder of links to the module's dependency
closure in the corpus, then reads the module's state from the database; the verdict and the log's
first error go to ``<corpus>/results/judged-<series>.json``. A module that installs makes every
install error on it false.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_precision_judge import judge, results_dir
from corpus import SERIES, load_json, save_json

CHECK_TIMEOUT_SECONDS = 3 * 3600
ENTRY = "import sys; from assista_mcp.cli import main; sys.argv[0] = 'assista-odoo'; sys.exit(main())"


def run_check(
    corpus: Path,
    series: str,
    half: str,
    label: str,
    python: str,
    tree: Path | None,
    jobs: int,
    odoo_path: Path | None = None,
) -> None:
    root = corpus.absolute() / series
    modules = load_json(root / "split.json", {})[half]
    python = str(Path(python).absolute()) if os.sep in python else python  # the check runs elsewhere
    out = results_dir(corpus) / f"{label}-{series}-{half}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [python, "-c", ENTRY, "check", "--checks", "static", "--addons-path", str(root)]
    if odoo_path is not None:
        cmd += ["--odoo-path", str(odoo_path.absolute())]
    cmd += ["--no-cache", "--jobs", str(jobs), "--format", "json", "-o", str(out), *modules]
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as cwd:  # no project file of ours is read
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=CHECK_TIMEOUT_SECONDS
        )
    seconds = time.monotonic() - started
    print(proc.stdout.strip()[-400:], proc.stderr.strip()[-800:], sep="\n")
    meta = {
        "cmd": cmd,
        "tree": str(tree) if tree else None,
        "rc": proc.returncode,
        "seconds": round(seconds, 1),
    }
    meta["commit"] = git_head(tree or Path(__file__).resolve().parent.parent)
    save_json(out.with_suffix(".meta.json"), meta)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check exited {proc.returncode}")
    print(f"{series} {half}: {len(modules)} modules in {seconds:.0f} s -> {out}")


def git_head(tree: Path) -> str:
    proc = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True)
    return proc.stdout.strip()


def errors_of(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report.get("findings", []) if f.get("severity") == "error"]


def report(corpus: Path, series: str, label: str) -> None:
    verdicts = load_json(results_dir(corpus) / f"judged-{series}.json", {})
    split = load_json(corpus / series / "split.json", {})
    for half in ("dev", "held_out"):
        path = results_dir(corpus) / f"{label}-{series}-{half}.json"
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        errors = errors_of(data)
        count = len(split[half])
        per_k = 1000 / max(count, 1)
        modules_hit = len({e["module"] for e in errors})
        false = [e for e in errors if verdicts.get(e["module"], {}).get("installed") is True]
        true = [e for e in errors if verdicts.get(e["module"], {}).get("installed") is False]
        print(
            f"{label} {series} {half}: {count} modules, {len(errors)} errors "
            f"({per_k * len(errors):.1f} per 1,000) on {modules_hit} modules; "
            f"judged false {len(false)} ({per_k * len(false):.1f} per 1,000), judged true {len(true)}, "
            f"not judged {len(errors) - len(false) - len(true)}"
        )
        by_code: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        for e in errors:
            by_code[e["code"]].append(e)
        for code, group in sorted(by_code.items(), key=lambda kv: -len(kv[1])):
            mods = sorted({e["module"] for e in group})
            judged = {
                m: verdicts[m]["installed"] for m in mods if verdicts.get(m, {}).get("installed") is not None
            }
            print(
                f"  {code}: {len(group)} errors on {len(mods)} modules; judged {len(judged)}: "
                f"{sum(judged.values())} install, {len(judged) - sum(judged.values())} fail"
            )


def compare(corpus: Path, series: str, half: str, label: str, other: str) -> int:
    """Print the findings (module, code, severity, file:line) only one of two runs has; 1 if any."""
    runs = []
    for name in (label, other):
        data = json.loads((results_dir(corpus) / f"{name}-{series}-{half}.json").read_text(encoding="utf-8"))
        runs.append(
            collections.Counter(
                (f.get("module", ""), f["code"], f["severity"], f"{f.get('path')}:{f.get('line')}")
                for f in data.get("findings", [])
            )
        )
    only = [(label, runs[0] - runs[1]), (other, runs[1] - runs[0])]
    for name, found in only:
        for key, count in sorted(found.items()):
            print(f"only {name}: {' '.join(key)}" + (f" (x{count})" if count > 1 else ""))
    print(
        f"{series} {half}: {sum(runs[0].values())} findings in {label}, {sum(runs[1].values())} in {other}; "
        f"{sum(only[0][1].values())} only in {label}, {sum(only[1][1].values())} only in {other}"
    )
    return 1 if only[0][1] or only[1][1] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("run", "judge", "report", "compare"))
    parser.add_argument("modules", nargs="*", help="for judge: the modules to install")
    parser.add_argument("--series", required=True, choices=SERIES)
    parser.add_argument("--corpus", type=Path, default=os.environ.get("ASSISTA_CORPUS"))
    parser.add_argument("--half", choices=("dev", "held_out"))
    parser.add_argument("--label", default="after", help="names the run's results (before, after, ...)")
    parser.add_argument("--other", help="compare: the label of the second run")
    parser.add_argument("--python", default=sys.executable, help="interpreter with assista-odoo installed")
    parser.add_argument("--tree", type=Path, help="run the tool from this checkout (PYTHONPATH)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--odoo-path", type=Path, help="run: an Odoo source of the series for the check")
    parser.add_argument("--demo", action="store_true", help="judge: install with demo data")
    args = parser.parse_intermixed_args(argv)
    if args.corpus is None:
        parser.error("give --corpus DIR or set ASSISTA_CORPUS")
    if args.action == "run":
        if args.half is None:
            parser.error("run needs --half dev or --half held_out")
        run_check(
            args.corpus, args.series, args.half, args.label, args.python, args.tree, args.jobs, args.odoo_path
        )
    elif args.action == "judge":
        for var in ("ASSISTA_BENCH_ODOO_BIN", "ASSISTA_BENCH_ODOO_ADDONS"):
            if var not in os.environ:
                parser.error(f"judge needs {var}")
        judge(args.corpus, args.series, args.modules, args.demo)
    elif args.action == "compare":
        if args.half is None or args.other is None:
            parser.error("compare needs --half and --other")
        return compare(args.corpus, args.series, args.half, args.label, args.other)
    else:
        report(args.corpus, args.series, args.label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
