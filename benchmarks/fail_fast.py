"""Benchmark: how long until a module Odoo refuses up front is reported, ours vs plain odoo-bin.

    ASSISTA_BENCH_ODOO_BIN=/path/to/odoo-bin ASSISTA_BENCH_ODOO_PYTHON=/path/to/venv/python \\
        .venv/bin/python benchmarks/fail_fast.py [--variants missing_dep,external_dep]

Without them it runs the stand-in ``fixtures/odoo_stub/odoo-bin`` and says so (plumbing only).

Per variant of ``library_base`` (tests/odoo/variants.py), in the same run:
- plain: ``odoo-bin -d <new database> -i library_base --stop-after-init`` (Odoo inits the database,
  then refuses), wall clock, the database dropped afterwards (not timed);
- ours: one ``OdooRunner.validate("install", ...)`` with an empty template cache (before the
  preflight this built the dependencies template first, then failed).
Prints both, and plain/ours.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.runs import OdooRunner, PgParams, RunnerConfig, RunSpec, build_argv, child_env, run_odoo
from tests.odoo.variants import make_variant

REPO = Path(__file__).resolve().parent.parent
STUB = REPO / "fixtures" / "odoo_stub" / "odoo-bin"


async def bench(
    variant: str, odoo_bin: Path, python: str | None, work: Path, prefix: str
) -> tuple[float, float]:
    root = work / variant
    make_variant(root, variant)
    config = RunnerConfig(
        addons_paths=[root], cache_dir=work / f"cache-{variant}", odoo_bin=odoo_bin, odoo_python=python,
        db_prefix=prefix, pg=PgParams.resolve(), extra_env={"ASSISTA_STUB_DELAY": "0"},
    )  # fmt: skip
    runner = OdooRunner(config)
    odoo = await runner.odoo()
    database = f"{prefix}plain_{secrets.token_hex(4)}"
    argv = build_argv(odoo, RunSpec(database, install=["library_base"]), addons_paths=[root],
                      data_dir=runner.cache.data_dir, pg=config.pg)  # fmt: skip
    env = child_env(config.pg, os.environ, runner.cache.data_dir) | {"ASSISTA_STUB_DELAY": "0"}
    started = time.monotonic()
    await run_odoo(argv, env=env, timeout=1800)
    plain = time.monotonic() - started
    runner.cache.drop_database(database)
    started = time.monotonic()
    result = await runner.validate("install", ["library_base"])
    ours = time.monotonic() - started
    runner.wait_idle()
    runner.cache.clear()
    kinds = sorted({f.kind for f in result.findings})
    print(f"  {variant}: ours {ours:.2f}s ({result.template.status}, {kinds}), plain odoo-bin {plain:.2f}s")
    return plain, ours


async def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default="missing_dep,external_dep")
    args = parser.parse_args()
    odoo_bin = os.environ.get("ASSISTA_BENCH_ODOO_BIN")
    python = os.environ.get("ASSISTA_BENCH_ODOO_PYTHON") or (None if odoo_bin else sys.executable)
    if not odoo_bin:
        print("No ASSISTA_BENCH_ODOO_BIN: using the stand-in odoo-bin (our plumbing only, not Odoo).")
    prefix = f"assista_bench{secrets.token_hex(2)}_"
    with tempfile.TemporaryDirectory(prefix="assista-failfast-") as tmp:
        for variant in args.variants.split(","):
            plain, ours = await bench(variant, Path(odoo_bin or STUB), python, Path(tmp), prefix)
            print(f"  {variant}: plain/ours = {plain / max(ours, 1e-6):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
