"""Warnings Odoo logs about the module under validation are warning findings at its file:line;
warnings about other modules stay out, and none of them fails a run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from odoo_tools.odoo_log import kinds, parse_odoo_log
from odoo_tools.runs._pg import Pg
from odoo_tools.runs._validate import OdooRunner, RunnerConfig

PARTNER = """from odoo import fields, models


class ResPartner(models.Model):
    _inherit = "res.partner"

    # team_id is mentioned in this comment first: the finding must not point here
    name2 = fields.Char()
    team_id = fields.Many2one(string="Team")
"""


def _line(level: str, logger: str, message: str) -> str:
    return f"2025-01-01 10:00:00,000 42 {level} db {logger}: {message} \n"


def _team_module(root: Path) -> Path:
    module = root / "team_mod"
    (module / "models").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 'Team', 'depends': ['base']}")
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models" / "__init__.py").write_text("from . import res_partner\n")
    (module / "models" / "res_partner.py").write_text(PARTNER)
    return module


def _log(*lines: str) -> str:
    return "".join(
        [_line("INFO", "odoo.modules.loading", "Loading module team_mod (3/3)"), *lines,
         _line("INFO", "odoo.modules.loading", "Module team_mod loaded in 0.05s, 60 queries")]
    )  # fmt: skip


def test_a_field_warning_points_at_the_fields_definition(tmp_path: Path) -> None:
    _team_module(tmp_path)
    text = _log(_line("WARNING", "odoo.fields", "Field res.partner.team_id with unknown comodel_name None"))
    [finding] = parse_odoo_log(text, roots=[tmp_path], modules=["team_mod"]).findings
    assert (finding.kind, finding.severity, finding.module) == (kinds.ODOO_WARNING, "warning", "team_mod")
    assert (finding.path, finding.line) == ("team_mod/models/res_partner.py", 9)
    assert finding.message == "Field res.partner.team_id with unknown comodel_name None"


def test_a_warning_about_a_field_the_module_does_not_define_is_not_its_finding(tmp_path: Path) -> None:
    _team_module(tmp_path)
    text = _log(
        _line("WARNING", "odoo.fields", "Field res.partner.other_id with unknown comodel_name 'x.y'"),
        _line("WARNING", "odoo.models", "The model sale.thing has no _description"),
    )
    assert parse_odoo_log(text, roots=[tmp_path], modules=["team_mod"]).findings == []


def test_unnamed_warnings_count_only_while_odoo_loads_the_module(tmp_path: Path) -> None:
    _team_module(tmp_path)
    outside = _line("WARNING", "odoo.addons.base.models.ir_ui_menu", "menu says something")
    library = _line("WARNING", "py.warnings", "/venv/lib/site-packages/lib.py:3: UserWarning: lib says so")
    text = outside + _log(
        _line("WARNING", "odoo.addons.base.models.ir_ui_menu", "menu says something else"), library
    )
    text += _line("WARNING", "odoo.modules.loading", "Transient module states were reset")
    [finding] = parse_odoo_log(text, roots=[tmp_path], modules=["team_mod"]).findings
    assert (finding.message, finding.module, finding.path) == ("menu says something else", "team_mod", "")


def test_a_manifest_warning_points_at_the_manifest(tmp_path: Path) -> None:
    _team_module(tmp_path)
    message = "Missing `license` key in manifest for 'team_mod', defaulting to LGPL-3"
    text = _line("WARNING", "odoo.modules.module", message)
    [finding] = parse_odoo_log(text, roots=[tmp_path], modules=["team_mod"]).findings
    assert (finding.path, finding.severity) == ("team_mod/__manifest__.py", "warning")


@pytest.mark.anyio
async def test_an_install_with_a_broken_field_is_ok_but_says_where(
    pg: Pg, stub_odoo_bin: Path, tmp_path: Path
) -> None:
    root = tmp_path / "addons"
    _team_module(root)
    runner = OdooRunner(
        RunnerConfig(
            addons_paths=[root],
            cache_dir=tmp_path / "cache",
            odoo_bin=stub_odoo_bin,
            odoo_python=sys.executable,
            db_prefix=pg.prefix,
            extra_env={"ASSISTA_STUB_DELAY": "0"},
        )
    )
    try:
        result = await runner.validate("install", ["team_mod"])
    finally:
        runner.wait_idle()
        runner.cache.clear()
    assert result.ok  # Odoo installed it: a warning never fails the run
    assert "cleanly" not in result.summary  # ...but it did not install cleanly
    [finding] = result.findings
    assert (finding.kind, finding.path, finding.line) == (
        kinds.ODOO_WARNING,
        "team_mod/models/res_partner.py",
        9,
    )
