"""Core fields and models Odoo 18.0 removed that a 17.0 module still uses: the module declares the
fields itself (warnings at each use), the rest are findings (fixtures/migrate_removed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.findings import Finding
from odoo_tools.lint import core_difference
from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.removed_core import _declarable
from odoo_tools.series import Series

from .conftest import snapshot

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "migrate_removed"
DECLARED = "the module now declares it"


@pytest.fixture
def removed(tmp_path: Path) -> Path:
    target = tmp_path / "removed"
    shutil.copytree(FIXTURES, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def _findings(folder: Path) -> dict[str, list[Finding]]:
    report = migrate([folder], "18.0", write=True)
    return {m.module: [f for s in m.steps for f in s.findings] for m in report.modules}


def _ours(found: list[Finding]) -> list[tuple[str, str, int | None, str]]:
    return sorted((f.code, f.path, f.line, f.severity) for f in found if f.code.startswith("removed-core"))


def test_a_removed_field_in_a_depends_path_is_declared_in_a_new_file(removed: Path) -> None:
    """OCA account_invoice_blocking: ``line_ids.blocked`` on account.move; the module has no class
    for account.move.line, so it gets models/account_move_line.py, imported below the others."""
    found = _findings(removed / "rm_blocking")["rm_blocking"]
    assert _ours(found) == [("removed-core-field", "rm_blocking/models/account_move.py", 15, "warning")]
    [finding] = [f for f in found if f.code == "removed-core-field"]
    assert "Field blocked of model account.move.line was removed from Odoo in 18.0" in finding.message
    assert DECLARED in finding.message and "not carried over" in finding.message
    module = removed / "rm_blocking"
    assert (module / "models" / "account_move_line.py").read_text() == (
        "from odoo import fields, models\n\n\n"
        "class AccountMoveLine(models.Model):\n"
        '    _inherit = "account.move.line"\n\n'
        "    # Removed from Odoo's account.move.line in 18.0, still used by this module: blocked\n"
        "    blocked = fields.Boolean()\n"
    )
    assert (module / "models" / "__init__.py").read_text() == (
        "# A comment line the import goes below.\n"
        "from . import account_move\nfrom . import account_move_line\n"
    )


def test_a_removed_field_of_a_sub_view_goes_into_the_modules_class(removed: Path) -> None:
    """OCA project_task_default_stage: ``description`` in the list of a project's ``type_ids`` is
    project.task.type's (gone in 18.0); project.task's ``description`` (still there) is left alone."""
    found = _findings(removed / "rm_stages")["rm_stages"]
    assert _ours(found) == [("removed-core-field", "rm_stages/views/project_view.xml", 14, "warning")]
    [finding] = [f for f in found if f.code == "removed-core-field"]
    assert "Field description of model project.task.type was removed" in finding.message
    code = (removed / "rm_stages" / "models" / "project_task_type.py").read_text()
    assert code.count("description = fields.Text()") == 1
    assert code.index("case_default = fields.Boolean(") < code.index("description = fields.Text()")
    assert code.index("description = fields.Text()") < code.index("def _default_stages")
    assert not (removed / "rm_stages" / "models" / "project_task.py").exists()
    compile(code, "project_task_type.py", "exec")


def test_what_cannot_be_declared_and_removed_models_are_findings(removed: Path) -> None:
    found = _findings(removed / "rm_misc")["rm_misc"]
    assert _ours(found) == [
        ("removed-core-field", "rm_misc/models.py", 8, "error"),  # a One2many: needs its inverse
        ("removed-core-field", "rm_misc/models.py", 10, "warning"),  # line_ids.blocked
        ("removed-core-field", "rm_misc/models.py", 32, "warning"),  # project.analytic_account_id
        ("removed-core-model", "rm_misc/data/properties.xml", 3, "error"),
    ]
    [hint] = [f.hint for f in found if f.code == "removed-core-field" and f.line == 32]
    assert "If it was renamed, 18.0 gave project.project account_id" in hint  # what replaced it
    # The step's own ir.property rule tells the inherit and the env use (not twice), at the lines
    # the file has once the declaration above them is in.
    property_lines = sorted(f.line or 0 for f in found if f.code == "removed-ir-property")
    assert property_lines == [19, 33]
    code = (removed / "rm_misc" / "models.py").read_text()
    lines = code.splitlines()
    assert lines[18].strip() == '_inherit = "ir.property"'
    assert 'self.env["ir.property"]' in lines[32]
    assert "project.analytic_account_id.name" in lines[31]
    assert 'analytic_account_id = fields.Many2one("account.analytic.account")' in code
    assert "reversal_move_id = " not in code
    assert code.endswith(
        '        return self.env["ir.property"].search([])\n\n\n'
        "class AccountMoveLine(models.Model):\n"
        '    _inherit = "account.move.line"\n\n'
        "    # Removed from Odoo's account.move.line in 18.0, still used by this module: blocked\n"
        "    blocked = fields.Boolean()\n"
    )
    assert not (removed / "rm_misc" / "models").exists()
    compile(code, "models.py", "exec")


def test_a_dry_run_changes_nothing(removed: Path) -> None:
    before = snapshot(removed)
    report = migrate([removed], "18.0")
    assert snapshot(removed) == before
    assert {m.module: bool(m.changed) for m in report.modules} == {
        "rm_blocking": True,
        "rm_imports": True,  # its version only (tests/migrate/test_removed_python.py)
        "rm_misc": True,
        "rm_stages": True,
    }
    assert "+    blocked = fields.Boolean()" in report.modules[0].diff


def test_cli_writes_the_declarations_and_reports_the_findings(
    removed: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    code = main(["migrate", str(removed), "--to", "18.0", "--write", "--format", "json"])
    assert code == 1  # rm_misc keeps errors
    data = json.loads(capsys.readouterr().out)
    codes = {
        (m["module"], f["code"], f["line"])
        for m in data["modules"]
        for s in m["steps"]
        for f in s["findings"]
        if f["code"].startswith("removed-core")
    }
    assert ("rm_stages", "removed-core-field", 14) in codes
    assert ("rm_blocking", "removed-core-field", 15) in codes
    assert (removed / "rm_blocking" / "models" / "account_move_line.py").is_file()


def test_what_the_lists_alone_can_declare() -> None:
    """Plain types, and relational ones whose comodel the target series has; not a Many2many whose
    model keeps another one to the same comodel (both would use the default table: Odoo refuses)."""
    diff = core_difference("17.0", "18.0")

    def declarable(model: str, name: str) -> bool:
        removed = diff.removed_field(model, name)
        assert removed is not None
        return _declarable(removed, diff.removed_models, "18.0")

    assert declarable("account.move.line", "blocked")
    assert declarable("project.project", "analytic_account_id")  # Many2one(account.analytic.account)
    assert not declarable("account.move", "reversal_move_id")  # One2many: needs its inverse
    assert not declarable("account.payment", "duplicated_ref_ids")  # 18.0 keeps a Many2many to account.move


PARTNER = """from odoo import fields, models


class ResPartner(models.Model):
    _inherit = "res.partner"

    note = fields.Char()

    def _team_name(self):
        return self.team_id.name
"""


@pytest.mark.parametrize(("depends", "declared"), [(["sales_team"], True), (["base"], False)])
def test_a_many2one_is_declared_only_when_its_comodel_is_among_the_dependencies(
    tmp_path: Path, depends: list[str], declared: bool
) -> None:
    """res.partner.team_id (crm.team, module sales_team) is gone in 18.0: a module on base alone
    would get a Many2one pointing nowhere, so it gets an error instead."""
    module = tmp_path / "team_use"
    module.mkdir()
    manifest = {"name": "t", "version": "17.0.1.0.0", "license": "LGPL-3", "depends": depends}
    (module / "__manifest__.py").write_text(repr(manifest))
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models.py").write_text(PARTNER)
    found = _ours(_findings(module)["team_use"])
    code = (module / "models.py").read_text()
    if declared:
        assert 'team_id = fields.Many2one("crm.team")' in code
        assert found == [("removed-core-field", "team_use/models.py", 13, "warning")]
    else:
        assert code == PARTNER
        assert found == [("removed-core-field", "team_use/models.py", 10, "error")]


PROJECT = """from odoo import api, models


class ProjectProject(models.Model):
    _inherit = "project.project"

    @api.depends("name")
    def _compute_display_name(self):
        super()._compute_display_name()
        for project in self:
            project.display_name = f"[{project.id}] {project.display_name}"
"""


def test_a_field_every_model_has_is_never_removed(tmp_path: Path) -> None:
    """18.0's project.project declared display_name itself, 19.0's takes BaseModel's: the field is
    still there. OCA project_key sets it in its _compute_display_name; declaring
    ``display_name = fields.Char()`` would replace the computed name with an empty column."""
    assert core_difference("18.0", "19.0").removed_field("project.project", "display_name") is None
    assert core_difference("16.0", "17.0").removed_field("res.partner", "display_name") is None
    module = tmp_path / "project_named"
    module.mkdir()
    manifest = {"name": "t", "version": "18.0.1.0.0", "license": "LGPL-3", "depends": ["project"]}
    (module / "__manifest__.py").write_text(repr(manifest))
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models.py").write_text(PROJECT)
    report = migrate([module], "19.0", write=True)
    assert (module / "models.py").read_text() == PROJECT
    assert [f for f in report.modules[0].findings if f.code.startswith("removed-core")] == []


def _old_account(root: Path, field: str) -> Path:
    """A 16.0 source whose account module gives account.move.reversal the field ``field``."""
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text("version_info = (16, 0, 0, 'final', 0, '')\n")
    wizard = root / "odoo" / "addons" / "account" / "wizard"
    wizard.mkdir(parents=True)
    (wizard / "account_move_reversal.py").write_text(
        "from odoo import fields, models\n\n\n"
        "class AccountMoveReversal(models.TransientModel):\n"
        "    _name = 'account.move.reversal'\n\n"
        f"    {field}\n"
    )
    return root


def _refund_module(tmp_path: Path, declaration: str) -> Path:
    module = tmp_path / "addons" / "refund_lines"
    (module / "wizards").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['account']}\n")
    (module / "__init__.py").write_text("from . import wizards\n")
    (module / "wizards" / "__init__.py").write_text("from . import reversal\n")
    (module / "wizards" / "reversal.py").write_text(
        "from odoo import fields, models\n\n\n"
        "class Reversal(models.TransientModel):\n"
        '    _inherit = "account.move.reversal"\n\n'
        f"{declaration}"
        "    line_ids = fields.Many2many('account.move.line')\n"
    )
    return module


def test_a_removed_selection_the_module_extends_gets_its_old_values(tmp_path: Path) -> None:
    """OCA account_invoice_refund_line_selection added a value to account.move.reversal's
    refund_method, gone in 17.0: "Field account.move.reversal.refund_method without selection"
    at install. Its 16.0 values, read in the 16.0 source, and the module's are its selection."""
    old = _old_account(
        tmp_path / "odoo16",
        "refund_method = fields.Selection(selection=[\n"
        "            ('refund', 'Partial Refund'),\n"
        "            ('cancel', 'Full Refund'),\n"
        "        ], string='Credit Method', required=True)",
    )
    module = _refund_module(
        tmp_path,
        "    refund_method = fields.Selection(\n"
        '        selection_add=[("refund_lines", "Refund specific lines")],\n'
        '        ondelete={"refund_lines": "cascade"},\n'
        "    )\n"
        "    reason = fields.Float(related='line_ids.discount_percentage')\n",
    )
    [migrated] = migrate([module], "17.0", odoo_sources={Series(16): old}, write=True).modules
    assert (module / "wizards" / "reversal.py").read_text().splitlines()[6:16] == [
        "    refund_method = fields.Selection(",
        "        selection=[",  # one value a line: on one, the line would pass 88 characters
        '            ("refund", "Partial Refund"),',
        '            ("cancel", "Full Refund"),',
        '            ("refund_lines", "Refund specific lines"),',
        "        ],",
        '        ondelete={"refund_lines": "cascade"},',
        "    )",
        "    reason = fields.Float(related='line_ids.discount_percentage')",
        "    line_ids = fields.Many2many('account.move.line')",
    ]
    found = [(f.path, f.line, f.severity) for f in migrated.findings if f.code == "removed-core-field"]
    assert found == [
        ("refund_lines/wizards/reversal.py", 7, "warning"),
        ("refund_lines/wizards/reversal.py", 15, "warning"),  # the related path's, moved with its line
    ]
    [finding] = [f for f in migrated.findings if f.code == "removed-core-field" and f.line == 7]
    assert "16.0's values (refund, cancel) and its own" in finding.message
    assert migrated.steps[0].rules_applied["removed-core-field"] == 2  # and discount_percentage


def test_a_short_selection_stays_on_its_line(tmp_path: Path) -> None:
    old = _old_account(tmp_path / "odoo16", "refund_method = fields.Selection([('a', 'A')])")
    module = _refund_module(tmp_path, '    refund_method = fields.Selection(selection_add=[("b", "B")])\n')
    migrate([module], "17.0", odoo_sources={Series(16): old}, write=True)
    assert (
        '    refund_method = fields.Selection(selection=[("a", "A"), ("b", "B")])\n'
        in (module / "wizards" / "reversal.py").read_text()
    )


def test_a_removed_selection_without_the_old_source_is_an_error(tmp_path: Path) -> None:
    declaration = '    refund_method = fields.Selection(selection_add=[("refund_lines", "Refund lines")])\n'
    module = _refund_module(tmp_path, declaration)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert declaration in (module / "wizards" / "reversal.py").read_text()
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "removed-core-field"]
    assert found == [(7, "error")]


def test_a_line_after_insertions_is_told_back_on_the_file_as_it_was() -> None:
    from odoo_tools.migrate.passes.declare_fields import original_line

    shifts = [(3, 2)]  # two lines inserted after line 3: lines 4, 5 are new, 6 was 4
    assert [original_line(shifts, line) for line in (1, 3, 4, 5, 6, 9)] == [1, 3, 3, 3, 4, 7]
    assert original_line([(3, 2), (6, 1)], 10) == 7  # after both: 10 - 2 - 1


@pytest.mark.parametrize(
    ("series", "model", "severity"),
    [
        # 19.0's registry setup asserts a relational field's comodel ("unknown comodel_name")
        ("19.0", "procurement.group", "error"),
        # 18.0 only logs a warning and the field gets '_unknown': it fails when reached
        ("18.0", "account.unreconcile", "warning"),
    ],
)
def test_a_comodel_the_series_removed_is_an_error_where_the_install_refuses_it(
    tmp_path: Path, series: str, model: str, severity: str
) -> None:
    module = tmp_path / "rm_comodel"
    module.mkdir()
    previous = f"{int(series.split('.')[0]) - 1}.0"
    (module / "__manifest__.py").write_text(
        f"{{'version': '{previous}.1.0.0', 'depends': ['stock', 'account']}}\n"
    )
    (module / "models.py").write_text(
        "from odoo import fields, models\n\n\n"
        "class Request(models.Model):\n"
        '    _name = "x.request"\n\n'
        f'    group_id = fields.Many2one("{model}")\n'
    )
    [migrated] = migrate([module], series).modules
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "removed-core-model"]
    assert found == [(7, severity)]
