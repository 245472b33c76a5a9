"""Core fields a step renamed (read in the two series' packs: a relational field made a many2many
of the same comodel, a stored flag replaced by ``active``) are renamed in the domains and views of
their model, through the migrate CLI: a rule's domain_force, an action's domain, a view's filter and
field, ``env["model"].search(...)`` in tests; the same name on another model is left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.series import field_renames

RULES_18 = """<odoo>
    <record id="rule_accounts" model="ir.rule">
        <field name="name">Accounts of my companies</field>
        <field name="model_id" ref="account.model_account_account"/>
        <field name="domain_force">[('company_id', 'in', company_ids)]</field>
    </record>
    <record id="rule_moves" model="ir.rule">
        <field name="name">Moves of my companies</field>
        <field name="model_id" ref="account.model_account_move"/>
        <field name="domain_force">[('company_id', 'in', company_ids)]</field>
    </record>
    <record id="action_accounts" model="ir.actions.act_window">
        <field name="name">Accounts</field>
        <field name="res_model">account.account</field>
        <field name="domain" eval="[('company_id.name', '!=', False)]"/>
    </record>
    <record id="view_accounts" model="ir.ui.view">
        <field name="model">account.account</field>
        <field name="arch" type="xml">
            <search>
                <field name="company_id"/>
                <filter name="mine" domain="[('company_id', '=', 1)]"/>
            </search>
        </field>
    </record>
</odoo>
"""

TEST_18 = """from odoo.tests import TransactionCase


class TestAccounts(TransactionCase):
    def test_search(self):
        accounts = self.env["account.account"].sudo().search([("company_id", "=", self.env.company.id)])
        moves = self.env["account.move"].search([("company_id", "=", 1)])
        self.assertTrue(accounts or moves)
"""

VIEWS_19 = """<odoo>
    <record id="filter_rule" model="ir.rule">
        <field name="name">Own filters</field>
        <field name="model_id" ref="base.model_ir_filters"/>
        <field name="domain_force">[('user_id', '=', user.id)]</field>
    </record>
    <record id="action_accounts" model="ir.actions.act_window">
        <field name="name">Accounts</field>
        <field name="res_model">account.account</field>
        <field name="domain">[('deprecated', '=', False), ('deprecated', 'in', [True])]</field>
    </record>
</odoo>
"""


MODEL_19 = """from odoo import fields, models


class Mapping(models.Model):
    _name = "my.mapping"

    account_id = fields.Many2one("account.account", domain="[('deprecated', '=', False)]")
    other_ids = fields.Many2many(comodel_name="account.account", domain=[("deprecated", "!=", True)])
    move_id = fields.Many2one("account.move", domain=[("deprecated", "=", False)])
"""


def _module(tmp_path: Path, series: str, files: dict[str, str]) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    depends = ["account"]
    (folder / "__manifest__.py").write_text(f"{{'version': '{series}.1.0.0', 'depends': {depends!r}}}\n")
    (folder / "__init__.py").write_text("")
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def test_the_packs_tell_the_renames() -> None:
    on_18 = field_renames("17.0", "18.0")
    assert on_18[("account.account", "company_id")].new == "company_ids"
    assert ("account.move", "company_id") not in on_18
    on_19 = field_renames("18.0", "19.0")
    assert on_19[("ir.filters", "user_id")].new == "user_ids"
    assert on_19[("sale.order.line", "tax_id")].new == "tax_ids"
    deprecated = on_19[("account.account", "deprecated")]
    assert (deprecated.new, deprecated.inverted) == ("active", True)


def test_17_to_18_domains_of_account_account(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _module(tmp_path, "17.0", {"security/rules.xml": RULES_18, "tests/test_accounts.py": TEST_18})
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    xml = (folder / "security/rules.xml").read_text()
    assert xml.count("[('company_ids', 'in', company_ids)]") == 1  # account.account's rule only
    assert xml.count("[('company_id', 'in', company_ids)]") == 1  # account.move keeps company_id
    assert "[('company_ids.name', '!=', False)]" in xml
    assert '<field name="company_ids"/>' in xml and "[('company_ids', '=', 1)]" in xml
    test = (folder / "tests/test_accounts.py").read_text()
    assert '.search([("company_ids", "=", self.env.company.id)])' in test
    assert 'self.env["account.move"].search([("company_id", "=", 1)])' in test
    assert "renamed-domain-field" in capsys.readouterr().out


def test_18_to_19_filters_and_the_deprecated_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _module(tmp_path, "18.0", {"views/views.xml": VIEWS_19, "models/mapping.py": MODEL_19})
    assert main(["migrate", str(folder), "--to", "19.0", "--write", "--no-diff"]) == 0
    xml = (folder / "views/views.xml").read_text()
    assert "[('user_ids', '=', user.id)]" in xml
    assert "('active', '=', True)" in xml
    assert "('deprecated', 'in', [True])" in xml  # not a plain = of a flag: left, with a warning
    model = (folder / "models/mapping.py").read_text()
    assert "domain=\"[('active', '=', True)]\")" in model  # the comodel's domain
    assert 'domain=[("active", "=", True)])' in model
    assert 'fields.Many2one("account.move", domain=[("deprecated", "=", False)])' in model
    out = capsys.readouterr().out
    assert "[renamed-domain-field]" in out and "says the opposite" in out


OWN_MODELS_18 = """from odoo import fields, models


class BudgetLine(models.Model):
    _name = "my.budget.line"

    account_id = fields.Many2one("account.account")
    move_id = fields.Many2one("account.move")


class Budget(models.Model):
    _name = "my.budget"

    line_ids = fields.One2many(
        "my.budget.line",
        "budget_id",
        domain="[('account_id.company_id', '=', company_id), ('move_id.company_id', '=', company_id)]",
    )
    account_id = fields.Many2one("account.account")


class Wizard(models.TransientModel):
    _name = "my.budget.wizard"

    budget_id = fields.Many2one("my.budget", domain=[("account_id.company_id.name", "!=", False)])
"""

OWN_VIEW_18 = """<odoo>
    <record id="view_budget" model="ir.ui.view">
        <field name="model">my.budget</field>
        <field name="arch" type="xml">
            <form>
                <field name="account_id" domain="[('company_id', '=', company_id)]"/>
                <field name="line_ids" domain="[('account_id.company_id', '=', company_id)]"/>
                <field name="company_id" domain="[('company_id', '=', 1)]"/>
            </form>
        </field>
    </record>
</odoo>
"""


def test_17_to_18_paths_through_the_modules_own_fields(tmp_path: Path) -> None:
    """A leaf's path steps through the module's own relational fields (unknown to the packs) into
    account.account, whose company_id is renamed; account.move's and res.company's are not."""
    folder = _module(tmp_path, "17.0", {"models/budget.py": OWN_MODELS_18, "views/budget.xml": OWN_VIEW_18})
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    model = (folder / "models/budget.py").read_text()
    assert "[('account_id.company_ids', '=', company_id), ('move_id.company_id', '=', company_id)]" in model
    assert '[("account_id.company_ids.name", "!=", False)]' in model  # the wizard's field
    view = (folder / "views/budget.xml").read_text()
    assert "<field name=\"account_id\" domain=\"[('company_ids', '=', company_id)]\"/>" in view
    assert "<field name=\"line_ids\" domain=\"[('account_id.company_ids', '=', company_id)]\"/>" in view
    assert (
        "<field name=\"company_id\" domain=\"[('company_id', '=', 1)]\"/>" in view
    )  # a field the module does not declare: not followed
