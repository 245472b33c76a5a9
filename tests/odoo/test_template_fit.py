"""A template serves a run only if it holds exactly what a fresh build for that run's addons would:
auto_install modules of other addons roots never leak into another root's runs.

The stand-in odoo-bin marks auto_install modules at database init the way Odoo 18's
``odoo/modules/db.py`` does, and logs "Some modules are not loaded ..." for installed rows whose
folder is not on the addons path, like ``odoo/modules/loading.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from odoo_tools.runs._pg import Pg
from odoo_tools.runs._validate import OdooRunner, RunnerConfig

RunnerFactory = Callable[[list[Path]], OdooRunner]


@pytest.fixture
def runner_for(pg: Pg, stub_odoo_bin: Path, tmp_path: Path) -> Iterator[RunnerFactory]:
    """Runners that share one template cache (one user, several projects or addons paths)."""
    made: list[OdooRunner] = []

    def make(roots: list[Path]) -> OdooRunner:
        config = RunnerConfig(
            addons_paths=roots,
            cache_dir=tmp_path / "cache",
            odoo_bin=stub_odoo_bin,
            odoo_python=sys.executable,
            db_prefix=pg.prefix,
            extra_env={"ASSISTA_STUB_DELAY": "0"},
        )
        made.append(OdooRunner(config))
        return made[-1]

    yield make
    for runner in made:
        runner.wait_idle()
        runner.cache.clear()


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _module(root: Path, name: str, manifest: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "__manifest__.py").write_text(manifest)
    return folder


@pytest.mark.anyio
async def test_an_auto_install_module_of_another_root_never_leaks_into_this_roots_runs(
    runner_for: RunnerFactory, addons: Path, tmp_path: Path
) -> None:
    glue = tmp_path / "glue"
    _module(glue, "glue_auto", "{'name': 'Glue', 'depends': ['base'], 'auto_install': True}")
    with_glue = await runner_for([addons, glue]).validate("install", ["library_base"])
    assert with_glue.ok, with_glue.findings
    without_glue = await runner_for([addons]).validate("install", ["library_base"])
    # Before: the same key, the template holding glue_auto was reused, and Odoo said
    # "Some modules are not loaded ... ['glue_auto']": a false failure of library_base.
    assert without_glue.ok, without_glue.findings
    assert without_glue.template.name != with_glue.template.name
    assert without_glue.findings == []


@pytest.mark.anyio
async def test_a_template_holding_a_module_this_run_lacks_is_rebuilt_and_says_why(
    runner_for: RunnerFactory, addons: Path, tmp_path: Path
) -> None:
    glue, helpers = tmp_path / "glue", tmp_path / "helpers"
    _module(glue, "glue_auto", "{'depends': ['base', 'glue_helper'], 'auto_install': ['base']}")
    _module(helpers, "glue_helper", "{'depends': ['base']}")
    first = await runner_for([addons, glue, helpers]).validate("install", ["library_base"])
    assert first.ok, first.findings
    runner = runner_for([addons, glue])  # same auto_install offers, so the same key
    second = await runner.validate("install", ["library_base"])
    assert second.template.name == first.template.name
    assert second.template.status == "built"
    assert "glue_helper" in second.template.rebuilt_because
    assert f"template {second.template.name} rebuilt: it holds glue_helper" in _read(second.log_path)
    # A fresh build leaves glue_auto 'to install' (its dependency is missing): Odoo logs an
    # error about glue_auto, which says nothing about library_base.
    assert second.ok, second.findings
    assert all(f.severity == "warning" for f in second.findings)
    third = await runner.validate("install", ["library_base"])
    assert third.ok and third.template.status == "hit"


@pytest.mark.anyio
async def test_a_template_whose_unpredicted_module_changed_is_rebuilt(
    runner_for: RunnerFactory, addons: Path, tmp_path: Path
) -> None:
    glue = tmp_path / "glue"
    _module(glue, "glue_auto", "{'depends': ['base', 'glue_helper'], 'auto_install': ['base']}")
    helper = _module(glue, "glue_helper", "{'depends': ['base']}")
    runner = runner_for([addons, glue])
    first = await runner.validate("install", ["library_base"])
    assert first.ok and first.template.status == "built"
    (helper / "__init__.py").write_text("# edited\n")
    second = await runner.validate("install", ["library_base"])
    assert second.ok and second.template.status == "built"
    assert second.template.rebuilt_because == "glue_auto, glue_helper changed since it was built"
