"""Benchmark: install one module naive (fresh database) vs cached (template clone) vs the floor vs warm.

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
  clone made beforehand, not timed): what no cache of a cold process can beat;
- warm: as cached, but odoo-bin is a fork of the warm worker (Odoo and the template's modules
  imported once; the worker is started by a validation before the rounds, not timed).
Prints the medians, naive/cached (goal >= 3.5), cached - floor (goal <= 1.5 s) and warm/floor
(goal <= 0.5), and checks that warm and cached answer the same.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
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
    ValidationResult,
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
    warm = OdooRunner(dataclasses.replace(runner.config, warm=True))
    try:
        return await _bench(runner, warm, args.module, args.rounds, label)
    finally:
        warm.close()
        warm.wait_idle()
        runner.wait_idle()
        runner.cache.clear()
        for name in runner.pg.list_ours():
            runner.cache.drop_database(name)
        shutil.rmtree(work, ignore_errors=True)


async def _bench(runner: OdooRunner, warm_runner: OdooRunner, module: str, rounds: int, label: str) -> int:
    odoo = await runner.odoo()
    print(f"install_cache benchmark: {label}, Odoo {odoo.version}, module {module}, {rounds} round(s)")
    started = time.monotonic()
    warm = await runner.validate("install", [module])
    if not warm.ok:
        print(f"the module does not install: {warm.summary}")
        return 1
    print(f"template build (once, first use): {time.monotonic() - started:.2f}s total, "
          f"{warm.template.build_seconds:.2f}s building")  # fmt: skip
    started = time.monotonic()
    first_warm = await warm_runner.validate("install", [module])
    print(f"warm worker start (once per template): {time.monotonic() - started:.2f}s total, "
          f"{first_warm.warm.status} ({first_warm.warm.note})")  # fmt: skip
    timings: dict[str, list[float]] = {"naive": [], "cached": [], "floor": [], "warm": []}
    phases: dict[str, dict[str, list[float]]] = {"cached": {}, "warm": {}}
    answers: dict[str, ValidationResult] = {}
    for index in range(rounds):
        timings["naive"].append(await _timed_validation(runner, module, False, {}, answers))
        timings["cached"].append(await _timed_validation(runner, module, True, phases["cached"], answers))
        timings["floor"].append(await _floor(runner, module, warm.template.name))
        timings["warm"].append(await _timed_validation(warm_runner, module, True, phases["warm"], answers))
        print(f"round {index + 1}: " + ", ".join(f"{k} {v[-1]:.2f}s" for k, v in timings.items()))
    naive, cached, floor, warm_s = (
        statistics.median(timings[k]) for k in ("naive", "cached", "floor", "warm")
    )
    print(f"median: naive {naive:.2f}s, cached {cached:.2f}s, floor {floor:.2f}s, warm {warm_s:.2f}s")
    print(f"naive/cached = {naive / cached:.2f}x (goal >= 3.5x)")
    print(f"cached - floor = {cached - floor:.2f}s (goal <= 1.5s)")
    print(f"warm/floor = {warm_s / floor:.2f}x (goal <= 0.5x), warm/cached = {warm_s / cached:.2f}x")
    for mode, spent in phases.items():
        print(
            f"{mode}, median per phase: "
            + ", ".join(f"{k} {statistics.median(v):.2f}s" for k, v in spent.items())
        )
    if _verdict(answers["warm"]) != _verdict(answers["cached"]):
        print(f"DIFFERENT ANSWERS: warm {_verdict(answers['warm'])} vs cached {_verdict(answers['cached'])}")
        return 1
    print("warm and cached answer the same (states, findings, tests)")
    return 0


def _verdict(result: ValidationResult) -> tuple[object, ...]:
    return (
        result.ok,
        [(m.module, m.state) for m in result.modules],
        sorted((f.kind, f.path or "", f.line or 0, f.severity) for f in result.findings),
        sorted((t.name, t.status) for t in result.tests),
    )


async def _timed_validation(
    runner: OdooRunner, module: str, use_cache: bool, phases: dict[str, list[float]],
    answers: dict[str, ValidationResult],
) -> float:  # fmt: skip
    started = time.monotonic()
    result = await runner.validate("install", [module], use_cache=use_cache)
    seconds = time.monotonic() - started
    mode = "warm" if runner.config.warm else "cached" if use_cache else "naive"
    answers[mode] = result
    if runner.config.warm and result.warm.status != "warm":
        raise SystemExit(f"the warm runner ran cold: {result.warm.note}")
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
