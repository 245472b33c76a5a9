"""Benchmark: migrate a corpus of real modules three ways and prove each on the next series' Odoo.

    ASSISTA_BENCH_ODOO_BIN="$ODOO18_SRC/odoo-bin" \\
    ASSISTA_BENCH_FROM_ODOO_PATH="$ODOO17_SRC" \\
    ASSISTA_BENCH_ODOO_PYTHON="$ODOO18_PYTHON" \\
    PGHOST=127.0.0.1 PGUSER=odoo PGPASSWORD=odoo \\
        nice -n 10 .venv/bin/python benchmarks/migrate_corpus.py --corpus "$CORPUS_DIR/core-only-17.0.txt" \\
        --to 18.0 --limit 50 --json /tmp/migrate-bench.json

(``ODOO17_SRC``, ``ODOO18_SRC``: Odoo source trees of those series; ``ODOO18_PYTHON``: a Python with
18.0's requirements; ``CORPUS_DIR``: the folder of corpus lists that ``benchmarks/corpus.py`` writes.)

The corpus file lists module folders of series N (one per line, anything after a tab ignored), whose
dependencies are core modules only. Each module is copied three times and migrated to N+1:
- unchanged: only the manifest version bumped (what installing the old code would do);
- odoo-module-migrator: OCA's tool (``odoo-module-migrate --no-commit --no-pre-commit``), when it
  knows the step (it stops at 18.0);
- ours: ``odoo_tools.migrate.migrate`` with the target source's upgrade_code scripts (and, when
  ``ASSISTA_BENCH_FROM_ODOO_PATH`` names the source series' Odoo source, its core views: gone
  anchors of inherited views are then retargeted).
Then each copy is installed with demo data and its own tests are run on the real Odoo N+1 through
the runner (template cache, warm worker). Prints one row per module, the totals (install clean %,
tests green % of the modules that have tests) and the time spent per way, and for every module our
way leaves failing, its first failure at file:line. Modules that need a dependency the new series
lacks are blocked, named, and left out of the percentages. ``--json`` keeps every result (and a
rerun with the same file resumes: modules already measured are not run again; with
``--rerun-changed`` each is migrated again and proved again only when its migrated files differ).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrate_corpus_report import blocked_proof, cell, report
from migrate_corpus_ways import (
    MIGRATOR_LAST,
    WAYS,
    depends_of,
    has_tests,
    migrate_way,
    read_corpus,
    same_files_proved,
    time_migrations,
)

from odoo_tools.errors import InvalidInput
from odoo_tools.migrate import proof_of
from odoo_tools.runs import OdooRunner, PgParams, RunnerConfig
from odoo_tools.series import normalize_series, previous_series, series_key


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--to", required=True, help="the target series, e.g. 18.0")
    parser.add_argument("--limit", type=int, default=None, help="this many modules, spread over the corpus")
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--work", type=Path, default=Path("/tmp/assista-migrate-bench"))
    parser.add_argument("--json", type=Path, default=None, help="results file (resumed when it exists)")
    parser.add_argument(
        "--part", default="1/1", help="K/N: only the K-th of N slices of the sorted modules (parallel runs)"
    )
    parser.add_argument(
        "--rerun-changed",
        action="store_true",
        help="with --json: migrate every module again and prove it again only when its migrated files "
        "differ from the measured ones (or were measured before files were recorded)",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="longest one odoo-bin run may take")
    parser.add_argument(
        "--migrate-only",
        action="store_true",
        help="migrate every module each way and print the time migration took (median, p90, max after "
        "the first module, which loads the packs); no Odoo run, no results file",
    )
    args = parser.parse_args()

    odoo_bin = os.environ.get("ASSISTA_BENCH_ODOO_BIN")
    if not odoo_bin:
        print(
            "set ASSISTA_BENCH_ODOO_BIN (and ASSISTA_BENCH_ODOO_PYTHON) to the target series' Odoo",
            file=sys.stderr,
        )
        return 2
    odoo_src = Path(odoo_bin).resolve().parent
    try:
        target = normalize_series(args.to)
    except InvalidInput as exc:
        parser.error(str(exc))
    source = previous_series(target)
    if source is None:
        print(f"{target} is the oldest supported series: nothing migrates to it", file=sys.stderr)
        return 2
    from_odoo = os.environ.get("ASSISTA_BENCH_FROM_ODOO_PATH")
    from_odoo_src = Path(from_odoo) if from_odoo else None
    ways = [w for w in args.ways.split(",") if w in WAYS]
    if "omm-master" in ways and series_key(target) <= series_key(MIGRATOR_LAST):
        ways.remove("omm-master")
    modules = sorted(read_corpus(args.corpus, args.limit), key=lambda f: (depends_of(f), f.name))
    part, parts = (int(n) for n in args.part.split("/"))
    size = -(-len(modules) // parts)
    measured = modules[(part - 1) * size : part * size]
    results: dict[str, dict[str, Any]] = (
        json.loads(args.json.read_text()) if args.json and args.json.exists() else {}
    )
    config = RunnerConfig(
        addons_paths=[],
        cache_dir=args.work / "cache",
        pg=PgParams.resolve(),
        odoo_bin=Path(odoo_bin),
        odoo_python=os.environ.get("ASSISTA_BENCH_ODOO_PYTHON"),
        db_prefix="assista_migbench_",
        timeout=args.timeout,
        warm=True,
        # one template per dependency set of the corpus, kept for the whole run and a rerun: the
        # runner's default (5, least recently used evicted) rebuilt them on every --rerun-changed pass
        template_max_count=200,
        # the lab's core never changes during a run: a new dependency set's template is built on
        # a copy of the largest one it contains, installing only the difference (a build from
        # empty took 1-3 minutes per dependency set and dominated the run)
        layered_templates=True,
    )
    print(
        f"{len(modules)} modules of {source} -> {target} on {odoo_bin}; ways: {', '.join(ways)}",
        file=sys.stderr,
    )
    # One addons folder and one runner (one Odoo process) for every way: each module is migrated
    # every way in turn, its copy put in the folder and proved, so a run stopped at any point has
    # every way of the modules it reached (no Odoo reads a copy another run is making: one run per
    # --part folder)
    root = args.work / target / ("all" if parts == 1 else f"all-part{part}of{parts}")
    if args.migrate_only:
        return time_migrations(measured, ways, args.work / target / "migrate-only", source, target, odoo_src)
    root.mkdir(parents=True, exist_ok=True)
    runner = OdooRunner(dataclasses.replace(config, addons_paths=[root]))
    try:
        for index, folder in enumerate(measured, 1):
            for way in ways:
                entry = results.setdefault(folder.name, {"path": str(folder), "has_tests": has_tests(folder)})
                if way in entry and not args.rerun_changed:
                    continue
                if way == "omm" and series_key(target) > series_key(MIGRATOR_LAST):
                    entry[way] = {**entry.get("unchanged", {}), "note": "odoo-module-migrator stops at 18.0"}
                    continue
                if way == "omm-master" and series_key(target) <= series_key(MIGRATOR_LAST):
                    continue  # 0.5.0 is the anchor up to 18.0
                done = migrate_way(way, folder, root, source, target, odoo_src, from_odoo_src)
                earlier = entry.get(way, {})
                if earlier.get("digest") == done["digest"]:
                    continue  # the same files as the measured ones: the same install and tests
                reused = same_files_proved(entry, done["digest"])
                gap = blocked_proof({w: r for w, r in entry.items() if w != way}, ways)
                if reused is not None:
                    done["proof"], done["proof_of_same_files"] = reused, True
                elif gap is not None:
                    done["proof"], done["proof_of_blocked"] = gap, True
                else:
                    result = runner.validate_sync("test", [folder.name], demo=True)
                    done["proof"] = proof_of(result, folder.name).model_dump(exclude={"findings"})
                entry[way] = done
                print(
                    f"[{way} {index}/{len(measured)}] {folder.name}: {cell(done)} "
                    f"{done['proof']['first_failure'][:150]}",
                    file=sys.stderr,
                    flush=True,
                )
                if args.json:
                    args.json.write_text(json.dumps(results, indent=1))
            shutil.rmtree(root / folder.name, ignore_errors=True)  # the next module's run reads no old copy
    finally:
        runner.wait_idle()
        runner.close()
    report(results, [m for m in modules if m.name in results], ways, source, target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
