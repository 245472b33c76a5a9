"""Module names: whatever Odoo installs (a folder named with a hyphen does), nothing that could
become an option, a second module or a path on odoo-bin's command line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from odoo_tools.errors import InvalidInput
from odoo_tools.odoo_log import parse_odoo_log
from odoo_tools.runs._pg import Pg
from odoo_tools.runs._plan import check_modules
from odoo_tools.runs._validate import OdooRunner, RunnerConfig


@pytest.mark.parametrize("name", ["library_base", "my-module", "l10n_ch-qr", "Module2", "été_module"])
def test_names_odoo_installs_are_accepted(name: str) -> None:
    assert check_modules([name]) == [name]


@pytest.mark.parametrize(
    "name", ["-i", "--addons-path=/tmp", "../etc", "a/b", "a\\b", "a.b", "x y", "..", ".hidden", "a\nb", "-"]
)
def test_names_that_are_not_one_module_on_the_command_line_are_refused(name: str) -> None:
    with pytest.raises(InvalidInput, match="Not a module name"):
        check_modules([name])


def test_a_comma_separates_modules_as_on_odoo_bins_command_line() -> None:
    assert check_modules(["a-b,c"]) == ["a-b", "c"]


def test_tests_of_a_hyphenated_module_are_refused_as_odoos_test_tags_cannot_name_it() -> None:
    with pytest.raises(InvalidInput, match="--test-tags takes no '-'"):
        check_modules(["my-module"], "test")
    assert check_modules(["my-module"], "upgrade") == ["my-module"]


def test_the_log_parser_follows_a_hyphenated_module() -> None:
    log = (
        "2025-01-01 10:00:00,000 1 INFO db odoo.modules.loading: Loading module my-module (3/3) \n"
        "2025-01-01 10:00:00,100 1 INFO db odoo.modules.loading: Module my-module loaded in 0.05s \n"
    )
    report = parse_odoo_log(log, roots=[], modules=["my-module"])
    assert report.loaded_modules == ["my-module"]
    assert report.completed_modules == ["my-module"]


@pytest.mark.anyio
async def test_a_hyphenated_module_installs_through_odoo_bin(
    pg: Pg, stub_odoo_bin: Path, addons: Path, tmp_path: Path
) -> None:
    shutil.move(addons / "library_base", addons / "library-base")
    for name in ("library_loan", "library_broken"):  # they depend on library_base
        shutil.rmtree(addons / name)
    config = RunnerConfig(
        addons_paths=[addons],
        cache_dir=tmp_path / "cache",
        odoo_bin=stub_odoo_bin,
        odoo_python=sys.executable,
        db_prefix=pg.prefix,
        extra_env={"ASSISTA_STUB_DELAY": "0"},
    )
    runner = OdooRunner(config)
    try:
        result = await runner.validate("install", ["library-base"])
    finally:
        runner.wait_idle()
        runner.cache.clear()
    assert result.ok, result.findings
    assert [(m.module, m.state) for m in result.modules] == [("library-base", "installed")]
