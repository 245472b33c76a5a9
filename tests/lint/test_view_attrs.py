"""16.0's ``attrs`` (issue 31 R): a left side of an attrs domain leaf or a free name of its values
that is no field of the node's model (own fields and the dependency closure, core from the 16.0
pack) is an error at its line on 16.0: probed on the 16.0 lab, the install fails ("Field 'x' used in
attrs (...) must be present in view but is missing"). A ``states`` attribute is not validated at
install on 16.0 (probed); on 17.0+ the attrs attribute itself is the deprecation check's claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.lint._static.view_expressions import attrs_names
from tests.lint.conftest import run_cli

MODELS = """from odoo import fields, models


class Thing(models.Model):
    _name = "probe.thing"
    _description = "Thing"

    name = fields.Char()
    state = fields.Selection([("a", "A")])
    line_ids = fields.One2many("probe.line", "thing_id")


class Line(models.Model):
    _name = "probe.line"
    _description = "Line"

    name = fields.Char()
    thing_id = fields.Many2one("probe.thing")
"""
# line numbers below are asserted: keep them in step
VIEWS = """<?xml version="1.0" encoding="utf-8"?>
<odoo>
  <record id="thing_form" model="ir.ui.view">
    <field name="model">probe.thing</field>
    <field name="arch" type="xml">
      <form>
        <button name="action_archive" type="object" string="X" states="nostate"/>
        <field name="state"/>
        <field name="name" attrs="{'invisible': [('statee', '=', 'a')]}"/>
        <field name="name" attrs="{'readonly': [('name', '=', nam)], 'required': context.get('x')}"/>
        <field name="name" attrs="{'invisible': [('state', '=', 'a'), ('id', '!=', False)]}"/>
        <field name="line_ids">
          <tree>
            <field name="name" attrs="{'readonly': [('parent.state', '=', 'a'), ('namee', '=', 1)]}"/>
            <field name="thing_id" attrs="{'invisible': [('name', '=', parent.statee)]}"/>
          </tree>
        </field>
      </form>
    </field>
  </record>
  <record id="partner_form" model="ir.ui.view">
    <field name="model">res.partner</field>
    <field name="inherit_id" ref="base.view_partner_form"/>
    <field name="arch" type="xml">
      <field name="phone" position="attributes">
        <attribute name="attrs">{'invisible': [('sale_order_count', '=', 0)]}</attribute>
      </field>
    </field>
  </record>
</odoo>
"""
ERRORS = [
    ("view-attrs-field-unknown", 9),  # statee
    ("view-attrs-field-unknown", 10),  # nam on the right side
    ("view-attrs-field-unknown", 14),  # namee on the line (the sub-view's model)
    ("view-attrs-field-unknown", 15),  # parent.statee
    ("view-attrs-field-unknown", 26),  # a field of sale, which is not in depends
]


def _module(root: Path, views: str = VIEWS, version: str = "16.0.1.0.0") -> Path:
    folder = root / "probe"
    (folder / "views").mkdir(parents=True)
    manifest = {"name": "probe", "version": version, "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["views/views.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    (folder / "models.py").write_text(MODELS, encoding="utf-8")
    (folder / "views" / "views.xml").write_text(views, encoding="utf-8")
    return root


def _fixed() -> str:
    text = VIEWS.replace("statee", "state").replace("namee", "name").replace("nam)", "name)")
    return text.replace("sale_order_count", "email")


def _static(root: Path, series: str | None) -> list[Finding]:
    project = load_project([root])
    project.series = series
    addons = [project.addon_set.get("probe")]
    return lint_addons_sync(
        project, addons, ["static"], cache=LintCache(None), digests=FileDigests()
    ).findings


def _placed(findings: list[Finding], severity: str) -> list[tuple[str, int | None]]:
    return sorted(
        (f.code, f.line) for f in findings if f.severity == severity and f.code == "view-attrs-field-unknown"
    )


def test_each_name_no_field_has_is_an_error_on_16(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons"), "16.0")
    assert _placed(found, "error") == ERRORS and _placed(found, "warning") == []
    said = {f.line: f.message for f in found if f.code == "view-attrs-field-unknown"}
    assert '"statee", which is no field of "probe.thing"' in said[9]
    assert 'parent.statee: "probe.thing" has no field "statee"' in said[15]


def test_the_same_views_fixed_have_no_finding(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons", _fixed()), "16.0")
    assert _placed(found, "error") == [] and _placed(found, "warning") == []


def test_17_refuses_attrs_itself_so_no_name_is_judged(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons", version="17.0.1.0.0"), "17.0")
    assert [f for f in found if f.code == "view-attrs-field-unknown"] == []


def test_an_unknown_series_gets_warnings(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons", version="1.0"), None)
    assert _placed(found, "error") == [] and ("view-attrs-field-unknown", 9) in _placed(found, "warning")


def test_cli_fails_on_a_misspelled_attrs_field(tmp_path: Path) -> None:
    addons = _module(tmp_path / "addons")
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--odoo-series", "16.0"], tmp_path, tmp_path / "c", {})
    errors = {
        (f["code"], f["line"]) for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"
    }
    assert set(ERRORS) <= errors and result.returncode == 1
    assert not any(code == "view-attrs-field-unknown" and line == 7 for code, line in errors)  # states


def test_cli_passes_the_fixed_module(tmp_path: Path) -> None:
    addons = _module(tmp_path / "addons", _fixed())
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--odoo-series", "16.0"], tmp_path, tmp_path / "c", {})
    codes = [f["code"] for f in json.loads(result.stdout)["findings"]]
    assert "view-attrs-field-unknown" not in codes


@pytest.mark.parametrize(
    ("text", "paths", "values"),
    [
        ("{'invisible': [('a.b', '=', c), '|', ('d', 'in', parent.e)]}", {"a.b", "d"}, {"c", "parent.e"}),
        ("{'readonly': context.get('x'), 'required': f}", set(), {"f"}),
        ("{'invisible': [('a', '=', uid), ('b', '<', context_today())]}", {"a", "b"}, set()),
    ],
)
def test_attrs_names(text: str, paths: set[str], values: set[str]) -> None:
    read = attrs_names(text)
    assert read is not None and read.paths == paths and read.values == values


@pytest.mark.parametrize("text", ["[('a', '=', 1)]", "{x: [('a', '=', 1)]}", "{'a': [x for x in y]}", "{"])
def test_attrs_odoo_refuses_are_not_read(text: str) -> None:
    assert attrs_names(text) is None
