"""ORM-aware static checks: guessed field, model and method names, resolved the way the ORM does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from odoo_tools.findings import Finding
from odoo_tools.index._python_index import parse_python
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import XML_HEAD, _module, _static

ACL = "id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
BOOK = """\
from odoo import api, fields, models


class Book(models.Model):
    _name = "lib.book"
    _description = "Book"
    _rec_name = "titel"

    name = fields.Char()
    author_id = fields.Many2one("res.partnerzz")
    line_ids = fields.One2many("lib.line", "book_idd")
    total = fields.Float(compute="_compute_nothing", store=True)
    line_qty = fields.Integer(related="line_ids.qtyy")
    partner_id = fields.Many2one("res.partner")
    partner_ref = fields.Char(related="partner_id.no_such_core_field")

    @api.depends("line_ids.qty", "nope")
    def _compute_total(self):
        return self.env["lib.nothing"]


class Line(models.Model):
    _name = "lib.line"
    _inherit = ["lib.mixin"]
    _description = "Line"

    book_id = fields.Many2one("lib.book")
    qty = fields.Integer()
    kind = fields.Selection(selection_add=[("x", "X")])


class Mixin(models.AbstractModel):
    _name = "lib.mixin"
    _description = "Mixin"

    note = fields.Char()


class BookNotes(models.Model):
    _name = "lib.book"
    _inherit = [_name, "lib.mixin"]
"""
VIEWS = (
    XML_HEAD
    + """<odoo>
    <record id="book_form" model="ir.ui.view">
        <field name="model">lib.book</field>
        <field name="arch" type="xml">
            <form>
                <field name="name"/>
                <field name="no_such_field"/>
                <field name="partner_id"/>
                <field name="note"/>
                <field name="line_ids">
                    <list><field name="qty"/><field name="note"/><field name="qtyy"/></list>
                </field>
            </form>
        </field>
    </record>
    <record id="book_action" model="ir.actions.act_window">
        <field name="name">Books</field>
        <field name="res_model">lib.bookk</field>
    </record>
    <record id="b1" model="lib.boo"><field name="name">a</field></record>
    <record id="b2" model="lib.book"><field name="nam">a</field></record>
    <record id="partner_form" model="ir.ui.view">
        <field name="model">res.partner</field>
        <field name="inherit_id" ref="base.view_partner_form"/>
        <field name="arch" type="xml">
            <field name="vat" position="after"><field name="unknown_without_source"/></field>
        </field>
    </record>
</odoo>
"""
)


def _library(root: Path) -> None:
    acl = ACL + "a,a,model_lib_book,,1,1,1,1\nb,b,model_lib_line,,1,1,1,1\n"
    _module(
        root,
        "lib",
        ["base"],
        ["security/ir.model.access.csv", "views/views.xml"],
        {"models.py": BOOK, "security/ir.model.access.csv": acl, "views/views.xml": VIEWS},
    )


def _on_series(root: Path, module: str, series: str) -> None:
    """The module's manifest version names ``series`` (each module is checked on its own)."""
    manifest = root / module / "__manifest__.py"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("17.0.", f"{series}."), encoding="utf-8")


def _orm(findings: list[Finding]) -> list[tuple[str, str, int | None, str]]:
    old = {"missing-access-rule", "model-without-description", "data-file-unlisted"}
    return sorted(
        (f.code, f.path, f.line, f.severity) for f in findings if f.source == "static" and f.code not in old
    )


EXPECTED = [
    ("action-model-unknown", "lib/views/views.xml", 19, "error"),
    ("comodel-unknown", "lib/models.py", 10, "warning"),  # Odoo 18 only warns; nothing goes through it
    ("compute-method-missing", "lib/models.py", 12, "warning"),  # a new model: installs, fails on read
    # no depends-field-unknown at line 17: no field computes with _compute_total (total names
    # _compute_nothing), so Odoo never reads its @api.depends (test_depends_are_read_only_...)
    ("env-model-unknown", "lib/models.py", 19, "warning"),
    ("inverse-name-unknown", "lib/models.py", 11, "error"),
    ("rec-name-unknown", "lib/models.py", 7, "error"),
    ("record-field-unknown", "lib/views/views.xml", 22, "error"),
    ("record-model-unknown", "lib/views/views.xml", 21, "error"),
    ("related-path-unknown", "lib/models.py", 13, "error"),
    ("selection-add-without-selection", "lib/models.py", 29, "error"),
    ("view-field-unknown", "lib/views/views.xml", 8, "error"),
    ("view-field-unknown", "lib/views/views.xml", 12, "error"),
]
# With the series pack of the module's series (17.0, 18.0, 19.0), res.partner's fields are known too.
EXPECTED_18 = sorted(
    [
        *EXPECTED,
        ("related-path-unknown", "lib/models.py", 15, "error"),
        ("view-field-unknown", "lib/views/views.xml", 27, "error"),
    ]
)


def test_guessed_names_of_own_models_are_errors_at_their_line(tmp_path: Path) -> None:
    """Without an Odoo source: every name on the module's own models is resolved (the mixin's
    ``note``, on lib.book through ``_inherit = [_name, "lib.mixin"]``); names on core models
    (res.partner's fields, its form view) are checked from the series pack, and stay silent on a
    series without one (20.0: no Odoo tree of it could be had, 19.0's pack is not borrowed)."""
    _library(tmp_path)
    assert _orm(_static(tmp_path, "lib", "17.0")) == EXPECTED_18
    _on_series(tmp_path, "lib", "18.0")
    assert _orm(_static(tmp_path, "lib", "18.0")) == EXPECTED_18
    manifest = tmp_path / "lib" / "__manifest__.py"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("18.0.", "20.0."), encoding="utf-8")
    on_20 = _orm(_static(tmp_path, "lib", "20.0"))
    assert not set(EXPECTED_18) - set(EXPECTED) & set(on_20)  # nothing claimed of res.partner
    assert ("view-field-unknown", "lib/views/views.xml", 8, "error") in on_20  # the module's own model


def test_missing_compute_of_a_stored_field_on_an_existing_model_is_an_error(tmp_path: Path) -> None:
    """A real Odoo 18 install computes a stored field for the records already there (res.partner
    has some): a missing method fails it; on a new model it installs and fails on first read."""
    code = "from odoo import fields, models\n\nclass P(models.Model):\n    _inherit = 'res.partner'\n\n"
    code += "    score = fields.Integer(compute='_compute_score', store=True)\n"
    _module(tmp_path, "pscore", ["base"], [], {"models.py": code})
    _on_series(tmp_path, "pscore", "18.0")
    found = [
        (f.code, f.line, f.severity) for f in _static(tmp_path, "pscore", "18.0") if f.source == "static"
    ]
    assert found == [("compute-method-missing", 6, "error")]


def test_a_correct_module_has_no_orm_finding(tmp_path: Path) -> None:
    text = BOOK.replace('"res.partnerzz"', '"res.partner"').replace('"book_idd"', '"book_id"')
    text = text.replace('"_compute_nothing"', '"_compute_total"').replace("qtyy", "qty")
    text = text.replace('_rec_name = "titel"', '_rec_name = "name"').replace(', "nope"', "")
    text = text.replace('self.env["lib.nothing"]', 'self.env["lib.line"]')
    text = text.replace("selection_add=", "selection=")
    views = VIEWS.replace('<field name="no_such_field"/>', "").replace("lib.bookk", "lib.book")
    views = views.replace('lib.boo"', 'lib.book"').replace('"nam"', '"name"')
    views = views.replace('<field name="qtyy"/>', "").replace("unknown_without_source", "email")
    text = text.replace("no_such_core_field", "email")
    acl = ACL + "a,a,model_lib_book,,1,1,1,1\nb,b,model_lib_line,,1,1,1,1\n"
    files = {"models.py": text, "security/ir.model.access.csv": acl, "views/views.xml": views}
    _module(tmp_path, "lib", ["base"], ["security/ir.model.access.csv", "views/views.xml"], files)
    assert _orm(_static(tmp_path, "lib", "18.0")) == []


def test_a_field_added_by_a_module_outside_the_dependencies_is_unknown(tmp_path: Path) -> None:
    """Fields come from the dependency closure only: a module the view's module does not depend
    on is not loaded yet when the view is validated."""
    _library(tmp_path)
    extra = "from odoo import fields, models\n\nclass B(models.Model):\n    _inherit = 'lib.book'\n\n"
    extra += "    no_such_field = fields.Char()\n"
    _module(tmp_path, "lib_extra", ["lib"], [], {"models.py": extra})
    codes = _orm(_static(tmp_path, "lib", "18.0"))
    assert ("view-field-unknown", "lib/views/views.xml", 8, "error") in codes


def test_inherit_list_with_own_name_extends_and_component_classes_are_not_models() -> None:
    source = b"""
from odoo import fields, models
from odoo.addons.component.core import Component

class Line(models.Model):
    _name = "sale.order.line"
    _inherit = [_name, "mail.thread"]

class Listener(Component):
    _name = "my.listener"
    _inherit = "base.event.listener"
"""
    data = parse_python(source, "m/models.py", "m")
    assert [(c.model, c.defines, c.inherit) for c in data.models] == [
        ("sale.order.line", False, ("sale.order.line", "mail.thread"))
    ]


def test_cli_reports_the_headline_cases(tmp_path: Path) -> None:
    root = tmp_path / "addons"
    _library(root)
    result = run_cli(
        ["check", "--addons-path", str(root), "--checks", "static", "lib"], tmp_path, tmp_path / "c"
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "lib/views/views.xml:8: error [static view-field-unknown]" in result.stdout
    assert "lib/models.py:10: warning [static comodel-unknown]" in result.stdout
    assert "lib/models.py:11: error [static inverse-name-unknown]" in result.stdout


@pytest.mark.anyio
async def test_check_module_returns_the_same_findings(tmp_path: Path, server_for: Callable[..., Any]) -> None:
    root = tmp_path / "addons"
    _library(root)
    async with Client(server_for(root)) as client:
        result = await client.call_tool("check_module", {"module": "lib", "min_severity": "warning"})
    data = result.structured_content
    assert data is not None
    got = sorted(
        (f["code"], f["path"], f.get("line"), f["severity"])
        for f in data["findings"]
        if f["source"] == "static" and f["code"] not in {"missing-access-rule", "model-without-description"}
    )
    assert got == EXPECTED_18


def test_an_anchor_the_parent_view_cannot_have_is_an_error(tmp_path: Path) -> None:
    """An inheriting view locates a field its model does not have (nor any inline sub-view's):
    Odoo cannot place it and refuses the view; a real anchor is fine."""
    _library(tmp_path)
    views = (
        XML_HEAD
        + """<odoo>
    <record id="book_form_more" model="ir.ui.view">
        <field name="model">lib.book</field>
        <field name="inherit_id" ref="lib.book_form"/>
        <field name="arch" type="xml">
            <field name="titel" position="after"><field name="note"/></field>
            <xpath expr="//field[@name='line_ids']/list/field[@name='qty']" position="after"/>
            <xpath expr="//field[@name='line_ids']/list/field[@name='quantity']" position="after"/>
        </field>
    </record>
</odoo>
"""
    )
    _module(tmp_path, "lib_more", ["lib"], ["views/more.xml"], {"views/more.xml": views})
    found = [(f.code, f.line) for f in _static(tmp_path, "lib_more", "17.0") if f.severity == "error"]
    assert found == [("view-anchor-unknown", 7), ("view-anchor-unknown", 9)]


def test_depends_are_read_only_of_a_method_a_field_computes_with(tmp_path: Path) -> None:
    """OCA's l10n_es_vat_book 19.0 keeps an @api.depends('tax_id') on a _compute_tax_rate of a
    model without tax_id and without a field computing with it: Odoo never reads it (it installs)."""
    code = (
        "from odoo import api, fields, models\n\n\nclass T(models.Model):\n"
        "    _name = 'p.t'\n    _description = 'T'\n\n"
        "    rate = fields.Float(compute='_compute_rate')\n\n"
        "    @api.depends('nope_rate')\n    def _compute_rate(self):\n        self.rate = 0\n\n"
        "    @api.depends('nope_unused')\n    def _compute_unused(self):\n        pass\n"
    )
    _module(tmp_path, "p", ["base"], [], {"models.py": code})
    _on_series(tmp_path, "p", "18.0")
    found = [(f.code, f.line) for f in _static(tmp_path, "p", "18.0") if f.code == "depends-field-unknown"]
    assert found == [("depends-field-unknown", 10)]
