"""A pip-installed Odoo (an ``odoo`` console script, the ``odoo`` package importable by its
interpreter) works as odoo-bin: its core addons are found, keyed and known to the checks."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from odoo_tools.odoo_log import kinds
from odoo_tools.runs._odoo_bin import inspect_odoo
from odoo_tools.runs._pg import Pg
from odoo_tools.runs._validate import OdooRunner, RunnerConfig
from tests.odoo.runner_support import STUB_ODOO_BIN


@pytest.fixture
def pip_odoo(tmp_path: Path) -> tuple[Path, str]:
    """(the ``odoo`` console script, an interpreter whose site has the ``odoo`` package)."""
    site = tmp_path / "site-packages"
    for name, manifest in (
        ("base", "{'depends': []}"),
        ("web", "{'depends': ['base'], 'auto_install': True}"),
    ):
        (site / "odoo" / "addons" / name).mkdir(parents=True)
        (site / "odoo" / "addons" / name / "__manifest__.py").write_text(manifest)
    (site / "odoo" / "__init__.py").write_text("raise SystemExit('never imported by us')\n")
    scripts = tmp_path / "bin"
    # the stand-in, named like pip's console script (its own ``odoo`` package stays behind)
    shutil.copytree(STUB_ODOO_BIN.parent, scripts, ignore=shutil.ignore_patterns("odoo"))
    (scripts / "odoo-bin").rename(scripts / "odoo")
    python = scripts / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH={site} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    return scripts / "odoo", str(python)


@pytest.mark.anyio
async def test_the_core_addons_of_a_pip_installed_odoo_are_found(
    pip_odoo: tuple[Path, str], tmp_path: Path
) -> None:
    script, python = pip_odoo
    odoo = await inspect_odoo(script, python)
    assert odoo.core_addons == (tmp_path / "site-packages" / "odoo" / "addons",)


@pytest.mark.anyio
async def test_a_pip_installed_odoo_validates_with_its_core_known(
    pip_odoo: tuple[Path, str], pg: Pg, addons: Path, tmp_path: Path
) -> None:
    script, python = pip_odoo
    runner = OdooRunner(
        RunnerConfig(
            addons_paths=[addons],
            cache_dir=tmp_path / "cache",
            odoo_bin=script,
            odoo_python=python,
            db_prefix=pg.prefix,
            extra_env={"ASSISTA_STUB_DELAY": "0"},
        )
    )
    try:
        unknown = await runner.validate("install", ["library_nope"])  # judged at once: the core is known
        good = await runner.validate("install", ["library_base"])
        [record] = runner.cache.templates()
    finally:
        runner.wait_idle()
        runner.cache.clear()
    assert unknown.template.status == "skipped" and [f.kind for f in unknown.findings] == [
        kinds.UNKNOWN_MODULE
    ]
    assert good.ok, good.findings
    assert record.modules == ["base", "web"]  # keyed: the core modules' files are in the key
    assert record.held == ["base", "web"] and record.unlocated == []
