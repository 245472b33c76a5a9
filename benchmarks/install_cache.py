"""Benchmark: install one module naive (fresh database) vs cached (template clone) vs the floor.

    .venv/bin/python benchmarks/install_cache.py [--rounds 3] [--module library_base]

With a real Odoo (preferred):
    ASSISTA_BENCH_ODOO_BIN=/path/to/odoo-bin ASSISTA_BENCH_ODOO_PYTHON=/path/to/venv/python \\
        .venv/bin/python benchmarks/install_cache.py
Without them it runs the stand-in ``fixtures/odoo_stub/odoo-bin`` and says so: those figures
only measure our plumbing, not Odoo.

Per round, each mode is one full validation through ``OdooRunner.validate`` (wall clock):
- naive: ``use_cache=False``: odoo-bin installs base, the dependencies and the module into an
  empty database;
- cached: the dependencies template is cloned (built once before the rounds, timed separately)
  and only the module is installed; the clone is a spare prepared during the previous run and
  the database is dropped after the answer, as in normal use;
- floor: odoo-bin alone, ``-i <module>`` into a database that already holds the dependencies (a
  clone made beforehand, not timed): what no cache can beat.
Prints the medians, naive/cached (goal >= 3.5) and cached - floor (goal <= 1.5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.runs import (
    OdooRunner,
    PgParams,
    RunnerConfig,
    RunSpec,
    build_argv,
    child_env,
    new_db_name,
    run_odoo,
)

REPO = Path(__file__).resolve().parent.parent
STUB = REPO / "fixtures" / "odoo_stub" / "odoo-bin"


async def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--module", default="library_base", help="a module of fixtures/addons")
    args = parser.parse_args()
    odoo_bin = os.environ.get("ASSISTA_BENCH_ODOO_BIN")
    python = os.environ.get("ASSISTA_BENCH_ODOO_PYTHON") or (None if odoo_bin else sys.executable)
    label = f"real Odoo ({odoo_bin})" if odoo_bin else "STAND-IN odoo-bin (plumbing only, not Odoo)"
    work = Path(tempfile.mkdtemp(prefix="assista-bench-"))
    shutil.copytree(REPO / "fixtures" / "addons", work / "addons")
    runner = OdooRunner(
        RunnerConfig(
            addons_paths=[work / "addons"],
            cache_dir=work / "cache",
            pg=PgParams.resolve(),
            odoo_bin=Path(odoo_bin) if odoo_bin else STUB,
            odoo_python=python,
            db_prefix=f"assista_bench{secrets.token_hex(2)}_",
            timeout=1800.0,
        )
    )
    try:
        return await _bench(runner, args.module, args.rounds, label)
    finally:
        runner.wait_idle()
        runner.cache.clear()
        for name in runner.pg.list_ours():
            runner.cache.drop_database(name)
        shutil.rmtree(work, ignore_errors=True)


async def _bench(runner: OdooRunner, module: str, rounds: int, label: str) -> int:
    odoo = await runner.odoo()
    print(f"install_cache benchmark: {label}, Odoo {odoo.version}, module {module}, {rounds} round(s)")
    started = time.monotonic()
    warm = await runner.validate("install", [module])
    if not warm.ok:
        print(f"the module does not install: {warm.summary}")
        return 1
    print(f"template build (once, first use): {time.monotonic() - started:.2f}s total, "
          f"{warm.template.build_seconds:.2f}s building")  # fmt: skip
    timings: dict[str, list[float]] = {"naive": [], "cached": [], "floor": []}
    phases: dict[str, list[float]] = {}
    for index in range(rounds):
        timings["naive"].append(await _timed_validation(runner, module, use_cache=False, phases={}))
        timings["cached"].append(await _timed_validation(runner, module, use_cache=True, phases=phases))
        timings["floor"].append(await _floor(runner, module, warm.template.name))
        print(f"round {index + 1}: " + ", ".join(f"{k} {v[-1]:.2f}s" for k, v in timings.items()))
    naive, cached, floor = (statistics.median(timings[k]) for k in ("naive", "cached", "floor"))
    print(f"median: naive {naive:.2f}s, cached {cached:.2f}s, floor {floor:.2f}s")
    print(f"naive/cached = {naive / cached:.2f}x (goal >= 3.5x)")
    print(f"cached - floor = {cached - floor:.2f}s (goal <= 1.5s)")
    print(
        "cached, median per phase: "
        + ", ".join(f"{k} {statistics.median(v):.2f}s" for k, v in phases.items())
    )
    return 0


async def _timed_validation(
    runner: OdooRunner, module: str, use_cache: bool, phases: dict[str, list[float]]
) -> float:
    started = time.monotonic()
    result = await runner.validate("install", [module], use_cache=use_cache)
    seconds = time.monotonic() - started
    for phase, spent in result.timings.items():
        phases.setdefault(phase, []).append(spent)
    if not result.ok or result.template.status not in ("hit", "disabled"):
        raise SystemExit(f"unexpected result ({result.template.status}): {result.summary}")
    return seconds


async def _floor(runner: OdooRunner, module: str, template: str) -> float:
    """odoo-bin -i alone, into a clone prepared beforehand (not timed)."""
    odoo = await runner.odoo()
    database = new_db_name("floor", runner.pg.prefix)
    runner.pg.create(database, template=template)
    try:
        spec = RunSpec(database, install=[module])
        config = runner.config
        argv = build_argv(
            odoo, spec, addons_paths=config.addons_paths, data_dir=runner.cache.data_dir, pg=config.pg
        )
        env = child_env(config.pg, os.environ, runner.cache.data_dir)
        env.update(config.extra_env)
        started = time.monotonic()
        run = await run_odoo(argv, env=env, timeout=config.timeout)
        seconds = time.monotonic() - started
        if run.returncode != 0:
            raise SystemExit(f"floor run failed with exit code {run.returncode}")
        return seconds
    finally:
        runner.cache.drop_database(database)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
