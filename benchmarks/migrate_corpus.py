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
import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.addons import detect_series
from odoo_tools.errors import InvalidInput
from odoo_tools.migrate import migrate, proof_of
from odoo_tools.runs import OdooRunner, PgParams, RunnerConfig
from odoo_tools.series import Series, normalize_series, previous_series, series_key

WAYS = ("unchanged", "omm", "omm-master", "upgrade_code", "nosource", "ours")
_VERSION = re.compile(r"""(["']version["']\s*:\s*)(["'])[^"']*(["'])""")
# odoo-module-migrator 0.5.0 from PyPI, and its upstream master (installed from a fetched snapshot),
# each in a venv of its own outside the checkout
MIGRATOR = Path(os.environ.get("ASSISTA_BENCH_OMM") or Path(sys.executable).parent / "odoo-module-migrate")
MIGRATOR_MASTER = Path(os.environ.get("ASSISTA_BENCH_OMM_MASTER") or "/nonexistent/odoo-module-migrate")
MIGRATOR_LAST = "18.0"  # the newest series odoo-module-migrator 0.5.0 migrates to


def read_corpus(path: Path, limit: int | None) -> list[Path]:
    folders = [Path(line.split("\t")[0].strip()) for line in path.read_text().splitlines() if line.strip()]
    folders = [f for f in folders if (f / "__manifest__.py").is_file()]
    if limit and limit < len(folders):  # spread over the whole list: every repository gets its share
        step = len(folders) / limit
        folders = [folders[int(i * step)] for i in range(limit)]
    return folders


def has_tests(folder: Path) -> bool:
    return any(folder.glob("tests/test_*.py"))


def depends_of(folder: Path) -> tuple[str, ...]:
    import ast

    manifest = ast.literal_eval((folder / "__manifest__.py").read_text())
    return tuple(sorted(manifest.get("depends", [])))


def bump_only(folder: Path, target: str) -> None:
    manifest = folder / "__manifest__.py"
    manifest.write_text(_VERSION.sub(rf"\g<1>\g<2>{target}.1.0.0\g<3>", manifest.read_text(), count=1))


def run_migrator(root: Path, module: str, source: str, target: str, migrator: Path = MIGRATOR) -> str:
    """OCA's migrator on the copy; '' when it ran, else why not."""
    if not migrator.exists():
        return f"{migrator} is not installed"
    argv = [
        str(migrator),
        "-d",
        str(root),
        "-m",
        module,
        "-i",
        source,
        "-t",
        target,
        "--no-commit",
        "--no-pre-commit",
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    return ""


def migrate_way(
    way: str,
    source_folder: Path,
    root: Path,
    source: str,
    target: str,
    odoo_src: Path,
    from_odoo_src: Path | None = None,
) -> dict[str, Any]:
    """Migrate a copy beside the addons folder, then move it in: a run stopped half-way never
    leaves an old-series manifest on the addons path (Odoo would refuse every later install)."""
    staging = root.parent / f".staging-{root.name}"
    copy = staging / source_folder.name
    shutil.rmtree(copy, ignore_errors=True)
    staging.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source_folder, copy, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__"))
    started = time.monotonic()
    note = ""
    rules: dict[str, int] = {}
    findings = 0
    if way == "unchanged":
        bump_only(copy, target)
    elif way in ("omm", "omm-master"):
        note = run_migrator(staging, copy.name, source, target, MIGRATOR if way == "omm" else MIGRATOR_MASTER)
        if note:
            bump_only(copy, target)
    elif way == "upgrade_code":
        rules = upgrade_code_only(copy, odoo_src)
    else:
        sources: dict[Series, Path] = {}
        for odoo in (odoo_src, from_odoo_src) if way == "ours" else ():
            major = detect_series(odoo_path=odoo).major if odoo is not None else None
            if odoo is not None and major is not None:
                sources[Series(major)] = odoo
        report = migrate([copy], target, write=True, odoo_sources=sources)
        [module] = report.modules
        rules = module.rules_applied
        findings = len(module.findings)
    seconds = round(time.monotonic() - started, 2)
    digest = tree_digest(copy)
    shutil.rmtree(root / copy.name, ignore_errors=True)
    copy.rename(root / copy.name)
    return {"migrate_seconds": seconds, "note": note, "rules": rules, "findings": findings, "digest": digest}


def upgrade_code_only(folder: Path, odoo_src: Path) -> dict[str, int]:
    """Odoo's own upgrade_code scripts of the target source, then the version bump: what
    ``odoo-bin upgrade_code`` and a manifest edit give without us."""
    from odoo_tools.migrate.engine.manifest_step import bump_version
    from odoo_tools.migrate.engine.module_files import ModuleFiles
    from odoo_tools.migrate.engine.report import StepReport
    from odoo_tools.migrate.engine.upgrade_code import run_upgrade_code

    files = ModuleFiles.read(folder)
    before, deleted = dict(files.texts), set(files.deleted)
    target = Series(detect_series(odoo_path=odoo_src).major or 0)
    report = StepReport(files.name, Series(target.major - 1), target)
    run_upgrade_code(files, odoo_src, report)
    bump_version(files, report)
    files.write(files.changes(before, deleted))
    return dict(report.applied)


def same_files_proved(entry: dict[str, Any], digest: str) -> dict[str, Any] | None:
    """Another way's result with the very same migrated files: its install and tests are this way's."""
    for result in entry.values():
        if isinstance(result, dict) and result.get("digest") == digest and "proof" in result:
            return dict(result["proof"])
    return None


def tree_digest(folder: Path) -> str:
    """What the migrated module is, file names and bytes: equal digests install and test alike."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cell(result: dict[str, Any]) -> str:
    proof = result["proof"]
    verdict = proof["verdict"]
    if verdict == "blocked":
        return "blocked"
    if not proof["installed"]:
        return "install-fail"
    failed = proof["tests_failed"]
    run = max(proof["tests_run"], failed)
    if run:
        return f"ok {run - failed}/{run}"
    # installed, no test ran: none to run, or tests that failed before running (an import error)
    return "ok, tests fail" if verdict == "tests-failed" else "ok (no tests)"


_ENVIRONMENT_GAP = re.compile(r"No module named '(?!odoo['.])|external dependency is not met")


def blocked(entry: dict[str, Any], ways: list[str]) -> bool:
    """Blocked in any way (a dependency or a Python library the target lacks): left out of every
    way's percentages, so all ways are compared on the same modules. Results recorded before the
    proof named a missing library as blocked are judged again from their first failure."""
    for way in ways:
        proof = entry.get(way, {}).get("proof", {})
        if proof.get("verdict") == "blocked" or _ENVIRONMENT_GAP.search(proof.get("first_failure", "")):
            return True
    return False


def blocked_proof(entry: dict[str, Any], ways: list[str]) -> dict[str, Any] | None:
    """A proof of another way that found the module blocked: the module is left out of every way's
    percentages (see ``blocked``), so proving its other copies only spends Odoo time."""
    for way in ways:
        if way in entry and blocked({way: entry[way]}, [way]):
            return dict(entry[way]["proof"])
    return None


def green(result: dict[str, Any]) -> bool:
    proof = result["proof"]
    return bool(proof["installed"] and proof["tests_failed"] == 0 and proof["tests_run"] > 0)


def totals(
    results: dict[str, dict[str, Any]], modules: list[Path], way: str, ways: list[str]
) -> dict[str, Any]:
    entries = [results[m.name] for m in modules if way in results.get(m.name, {})]
    kept = [e for e in entries if not blocked(e, ways)]
    with_tests = [e for e in kept if e["has_tests"]]
    return {
        "measured": len(kept),
        "installed": len([e for e in kept if e[way]["proof"]["installed"]]),
        "with_tests": len(with_tests),
        "green": len([e for e in with_tests if green(e[way])]),
        "migrate_seconds": round(sum(e[way]["migrate_seconds"] for e in entries), 1),
        "prove_seconds": round(sum(e[way]["proof"]["seconds"] for e in entries), 1),
    }


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


def time_migrations(
    modules: list[Path], ways: list[str], root: Path, source: str, target: str, odoo_src: Path
) -> int:
    """How long migration itself takes per module, warm: the first module of a way pays for loading
    the packs (once per run), so it is said apart from the others' median, p90 and max. The CPU time
    is said too: on a shared machine the wall clock mostly measures the other processes. Beside it,
    the baseline run in the same process just before each migration: reading the module's files and
    parsing each Python file once with libcst (what no migration can do without), and the ratio of
    the two, which the machine's load moves much less than either."""
    root.mkdir(parents=True, exist_ok=True)
    for way in ways:
        seconds, cpu, base, slowest = [], [], [], []
        for folder in modules:
            base.append(parse_baseline(folder))
            started = time.process_time()
            seconds.append(migrate_way(way, folder, root, source, target, odoo_src)["migrate_seconds"])
            cpu.append(round(time.process_time() - started, 2))
            slowest.append((cpu[-1], folder.name, base[-1]))
            shutil.rmtree(root / folder.name, ignore_errors=True)
        ratios = [c / max(b, 0.01) for c, b in zip(cpu, base, strict=True)]
        print(f"{way}: {len(seconds)} modules, wall: {time_summary(seconds)}")
        print(f"{way}: {len(cpu)} modules, CPU (this process): {time_summary(cpu)}")
        print(f"{way}: baseline (read + parse each .py once), CPU: {time_summary(base)}")
        print(
            f"{way}: migration / baseline: {time_summary(ratios, unit='x')}; whole run "
            f"{sum(cpu[1:]) / max(sum(base[1:]), 0.01):.1f}x ({sum(cpu[1:]):.1f} s / {sum(base[1:]):.1f} s "
            "after the first module)"
        )
        print(
            f"{way}: most CPU: "
            + ", ".join(f"{name} {s:.2f} s ({s / max(b, 0.01):.1f}x)" for s, name, b in sorted(slowest)[-5:])
        )
        print(f"{way}: over 5 s CPU after the first: {sum(c > 5 for c in cpu[1:])} of {len(cpu) - 1}")
    return 0


def parse_baseline(folder: Path) -> float:
    """CPU seconds to read ``folder``'s files and parse each Python file once with libcst."""
    import libcst as cst

    from odoo_tools.migrate.engine.module_files import ModuleFiles

    started = time.process_time()
    for rel, text in ModuleFiles.read(folder).texts.items():
        if rel.endswith(".py"):
            with contextlib.suppress(cst.ParserSyntaxError):  # the migration says so, not this
                cst.parse_module(text)
    return round(time.process_time() - started, 3)


def time_summary(seconds: list[float], unit: str = " s") -> str:
    if not seconds:
        return "no module"
    warm = sorted(seconds[1:]) or seconds
    p90 = warm[min(len(warm) - 1, int(0.9 * len(warm)))]
    return (
        f"first {seconds[0]:.2f}{unit}; warm median {warm[len(warm) // 2]:.2f}{unit}, p90 {p90:.2f}{unit}, "
        f"max {warm[-1]:.2f}{unit}"
    )


def report(
    results: dict[str, dict[str, Any]], modules: list[Path], ways: list[str], source: str, target: str
) -> None:
    """Only modules measured every way are compared."""
    modules = [m for m in modules if all(w in results.get(m.name, {}) for w in ways)]
    if not modules:
        print("no module measured every way yet")
        return
    width = max(len(m.name) for m in modules)
    print(f"{'module':<{width}}  " + "  ".join(f"{w:<14}" for w in ways))
    for folder in modules:
        entry = results[folder.name]
        row = "  ".join(f"{'blocked' if blocked(entry, ways) else cell(entry[w]):<14}" for w in ways)
        print(f"{folder.name:<{width}}  {row}")
    print(f"\ntotals, {source} -> {target}, {len(modules)} modules:")
    for way in ways:
        t = totals(results, modules, way, ways)
        clean = 100 * t["installed"] / t["measured"] if t["measured"] else 0.0
        tests = 100 * t["green"] / t["with_tests"] if t["with_tests"] else 0.0
        print(
            f"  {way:<10} install clean {t['installed']}/{t['measured']} = {clean:.1f} %   tests green "
            f"{t['green']}/{t['with_tests']} = {tests:.1f} % (of those with tests)   migrate "
            f"{t['migrate_seconds']} s, install+tests {t['prove_seconds']} s"
        )
    gaps = [m.name for m in modules if blocked(results[m.name], ways)]
    if gaps:
        print(f"blocked (a dependency or Python library missing in {target}): {', '.join(gaps)}")

    def still_failing(entry: dict[str, Any], way: str) -> bool:
        ours = entry[way]
        return not ours["proof"]["installed"] or (entry["has_tests"] and not green(ours))

    for ours in [w for w in ("ours", "nosource") if w in ways]:
        failing = [m for m in modules if not blocked(results[m.name], ways)]
        failing = [m for m in failing if still_failing(results[m.name], ours)]
        if failing:
            print(f"{ours}, still failing, first failure:")
            for folder in failing:
                print(f"  {folder.name}: {results[folder.name][ours]['proof']['first_failure'][:300]}")


if __name__ == "__main__":
    raise SystemExit(main())
