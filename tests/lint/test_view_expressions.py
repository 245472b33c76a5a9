"""Field names inside view expressions (issue 31): a modifier, decoration, context value, group_by
or view domain naming no field of the model the node sees is an error at its line on the series
that refuse it at install (probed on the 17.0/18.0/19.0 labs); a search field's filter_domain and an
action's domain are warnings (Odoo 18 installs them); names Odoo binds itself are not fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.lint._static.view_expressions import context_group_by, domain_names, expression_names
from tests.lint.conftest import run_cli

MODELS = """from odoo import fields, models


class Thing(models.Model):
    _name = "probe.thing"
    _description = "Thing"

    name = fields.Char()
    state = fields.Selection([("a", "A")])
    other_id = fields.Many2one("probe.other")
    line_ids = fields.One2many("probe.line", "thing_id")
    shown_id = fields.Many2one("probe.other", domain="[('thing_id.namee', '=', 1)]")
    listed_id = fields.Many2one("probe.other", domain=[("namee", "=", 1)])
    hidden_id = fields.Many2one("probe.other", domain="[('namee', '=', 1)]")


class Line(models.Model):
    _name = "probe.line"
    _description = "Line"

    name = fields.Char()
    thing_id = fields.Many2one("probe.thing")


class Other(models.Model):
    _name = "probe.other"
    _description = "Other"

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
        <field name="name" invisible="statee == 'a'"/>
        <field name="state" readonly="not other_id.name and uid and context.get('x')"/>
        <field name="other_id" domain="[('thing_id.namee', '=', name)]" context="{'default_name': nam}"/>
        <field name="line_ids">
          <list decoration-danger="namee" >
            <field name="name" column_invisible="parent.statee"/>
            <field name="thing_id" required="name and parent.state"/>
          </list>
        </field>
      </form>
    </field>
  </record>
  <record id="thing_search" model="ir.ui.view">
    <field name="model">probe.thing</field>
    <field name="arch" type="xml">
      <search>
        <field name="name" filter_domain="[('namee', 'ilike', self)]"/>
        <filter name="f" string="F" domain="[('other_id.namee', '=', 1)]"/>
        <filter name="g" string="G" context="{'group_by': 'statee:month'}"/>
      </search>
    </field>
  </record>
  <record id="thing_form_more" model="ir.ui.view">
    <field name="model">probe.thing</field>
    <field name="inherit_id" ref="thing_form"/>
    <field name="arch" type="xml">
      <field name="state" position="attributes">
        <attribute name="invisible">namee</attribute>
      </field>
    </field>
  </record>
  <record id="thing_action" model="ir.actions.act_window">
    <field name="name">Things</field>
    <field name="res_model">probe.thing</field>
    <field name="domain">[('statee', '=', 'a')]</field>
  </record>
  <record id="thing_form_2" model="ir.ui.view">
    <field name="model">probe.thing</field>
    <field name="arch" type="xml"><form><field name="shown_id"/><field name="listed_id"/></form></field>
  </record>
</odoo>
"""
ERRORS = [
    ("view-expression-field-unknown", 7),  # statee
    ("view-domain-field-unknown", 9),  # thing_id.namee on the comodel's path
    ("view-expression-field-unknown", 9),  # nam in a context value
    ("view-expression-field-unknown", 11),  # namee on the line (the sub-view's model)
    ("view-expression-field-unknown", 12),  # parent.statee
    ("view-domain-field-unknown", 24),  # a filter's domain path
    ("view-domain-field-unknown", 25),  # group_by
    ("view-expression-field-unknown", 34),  # an inheriting view's attribute
]
WARNINGS = [("filter-domain-field-unknown", 23), ("action-domain-field-unknown", 41)]
PY_ERRORS = [("field-domain-field-unknown", 12)]  # a string domain, the field in a form
PY_WARNINGS = [("field-domain-field-unknown", 13), ("field-domain-field-unknown", 14)]  # a list; no form
FIXES = ["statee", "namee", "'default_name': nam}"]


def _module(root: Path, views: str = VIEWS, version: str = "18.0.1.0.0", models: str = MODELS) -> Path:
    folder = root / "probe"
    (folder / "views").mkdir(parents=True)
    manifest = {"name": "probe", "version": version, "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["views/views.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    (folder / "models.py").write_text(models, encoding="utf-8")
    (folder / "views" / "views.xml").write_text(views, encoding="utf-8")
    return root


def _fixed_models() -> str:
    return MODELS.replace("namee", "name")


def _fixed() -> str:
    text = VIEWS.replace("statee", "state").replace("namee", "name")
    return text.replace("'default_name': nam}", "'default_name': name}")


def _static(root: Path, series: str) -> list[Finding]:
    project = load_project([root])
    project.series = series
    addons = [project.addon_set.get("probe")]
    return lint_addons_sync(
        project, addons, ["static"], cache=LintCache(None), digests=FileDigests()
    ).findings


def _placed(findings: list[Finding], severity: str) -> list[tuple[str, int | None]]:
    mine = ("view-expression", "view-domain", "filter-domain", "action-domain", "field-domain")
    return sorted((f.code, f.line) for f in findings if f.severity == severity and f.code.startswith(mine))


def test_each_broken_name_is_found_at_its_line(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons"), "18.0")
    assert _placed(found, "error") == sorted(ERRORS + PY_ERRORS)
    assert _placed(found, "warning") == sorted(WARNINGS + PY_WARNINGS)
    assert all(f.path == "probe/views/views.xml" for f in found if f.code.startswith("view-expression"))


def test_the_same_views_fixed_have_no_finding(tmp_path: Path) -> None:
    found = _static(_module(tmp_path / "addons", _fixed(), models=_fixed_models()), "18.0")
    assert _placed(found, "error") == [] and _placed(found, "warning") == []


def test_a_series_not_probed_gets_warnings(tmp_path: Path) -> None:
    """A 16.0 modifier names no field: a warning here (16.0 writes attrs: view-attrs-field-unknown)."""
    found = _static(_module(tmp_path / "addons", version="16.0.1.0.0"), "16.0")
    assert _placed(found, "error") == []
    assert ("view-expression-field-unknown", 7) in _placed(found, "warning")


def test_a_model_we_cannot_fully_know_is_not_judged(tmp_path: Path) -> None:
    """A dependency no one knows may add the field to the model."""
    root = _module(tmp_path / "addons")
    manifest = root / "probe" / "__manifest__.py"
    text = manifest.read_text(encoding="utf-8").replace("['base']", "['base', 'unknown_x']")
    manifest.write_text(text, encoding="utf-8")
    models = root / "probe" / "models.py"
    models.write_text(
        models.read_text(encoding="utf-8").replace(
            '_name = "probe.thing"', '_inherit = "unknown.thing"\n    _name = "probe.thing"'
        ),
        encoding="utf-8",
    )
    errors = _placed(_static(root, "18.0"), "error")
    assert ("view-expression-field-unknown", 7) not in errors


def test_cli_fails_on_a_broken_expression(tmp_path: Path) -> None:
    addons = _module(tmp_path / "addons")
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--odoo-series", "18.0"], tmp_path, tmp_path / "c", {})
    errors = {
        (f["code"], f["line"]) for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"
    }
    assert set(ERRORS) <= errors and result.returncode == 1


def test_active_id_is_a_name_only_17_lets_through(tmp_path: Path) -> None:
    """Odoo 17 logs a deprecation for active_id in an expression; 18 refuses the view (probed)."""
    views = _fixed().replace("'default_name': name}", "'default_name': active_id}")
    on_18 = _placed(_static(_module(tmp_path / "a18", views, models=_fixed_models()), "18.0"), "error")
    on_17 = _placed(_static(_module(tmp_path / "a17", views, "17.0.1.0.0", _fixed_models()), "17.0"), "error")
    assert on_18 == [("view-expression-field-unknown", 9)] and on_17 == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("state == 'done' or not partner_id.is_company", {"state", "partner_id"}),
        ("parent.state and uid and context.get('x') and context_today()", {"parent.state"}),
        ("True", set()),
        ("1", set()),
        ("[x for x in y]", None),  # a shape Odoo refuses: not ours to judge
        ("a and (", None),
        ("x" * 5000, None),  # over the bound: not read
    ],
)
def test_expression_names(text: str, names: set[str] | None) -> None:
    assert expression_names(text) == names


def test_domain_names_and_group_by() -> None:
    read = domain_names("[('a.b', '=', c), '|', ('d', 'in', parent.e)] + ([('f', '=', 1)] if g else [])")
    assert (
        read is not None and read.paths == {"a.b", "d", "f"} and read.values == {"c", "parent.e"}
    )  # Odoo reads no test of an if
    other = domain_names("other_field_domain")
    assert other is not None and other.paths == set() and other.values == {"other_field_domain"}
    assert domain_names("[('a', '=', 1), 'x']") is None
    assert context_group_by("{'group_by': 'date:month', 'x': 1}") == "date"
    assert context_group_by("{'x': 1}") is None and context_group_by("[1]") is None


def test_a_related_field_of_another_type_is_an_error(tmp_path: Path) -> None:
    """Odoo raises TypeError for it when it builds the registry (probed on the 18.0 lab)."""
    models = _fixed_models() + (
        "\n\nclass Line2(models.Model):\n"
        '    _inherit = "probe.line"\n\n'
        '    thing_name = fields.Char(related="thing_id.name")\n'
        '    thing_other = fields.Char(related="thing_id.other_id")\n'
    )
    found = _static(_module(tmp_path / "addons", _fixed(), models=models), "18.0")
    errors = [(f.code, f.line) for f in found if f.code == "related-type-mismatch"]
    assert errors == [("related-type-mismatch", len(models.splitlines()))]
    assert all(f.severity == "error" for f in found if f.code == "related-type-mismatch")


@pytest.mark.parametrize("attribute", ["readonly=True, ", 'compute="_c", ', 'related="other_id", '])
def test_a_python_domain_of_a_field_the_form_cannot_edit_is_a_warning(tmp_path: Path, attribute: str) -> None:
    """Odoo validates a field's Python domain only where the form lets the user edit the field."""
    models = MODELS.replace(
        'shown_id = fields.Many2one("probe.other", ', f'shown_id = fields.Many2one("probe.other", {attribute}'
    )
    found = _static(_module(tmp_path / "addons", models=models), "18.0")
    assert ("field-domain-field-unknown", 12) in _placed(found, "warning")
    assert ("field-domain-field-unknown", 12) not in _placed(found, "error")


def test_a_python_domain_of_a_field_shown_readonly_is_a_warning(tmp_path: Path) -> None:
    views = VIEWS.replace('<field name="shown_id"/>', '<field name="shown_id" readonly="1"/>')
    found = _static(_module(tmp_path / "addons", views), "18.0")
    assert ("field-domain-field-unknown", 12) in _placed(found, "warning")


def test_an_inheriting_search_view_is_on_its_model(tmp_path: Path) -> None:
    """A search view has no inline sub-views: a filter added to it filters its model."""
    spec = (
        '  <record id="thing_search_more" model="ir.ui.view">\n'
        '    <field name="model">probe.thing</field>\n'
        '    <field name="inherit_id" ref="thing_search"/>\n'
        '    <field name="arch" type="xml">\n'
        '      <filter name="f" position="after">\n'
        "        <filter name=\"h\" string=\"H\" domain=\"[('statee', '=', 'a')]\"/>\n"
        "      </filter>\n"
        "    </field>\n"
        "  </record>\n"
        "</odoo>"
    )
    views = _fixed().replace("</odoo>", spec)
    line = (
        views.splitlines().index(
            "        <filter name=\"h\" string=\"H\" domain=\"[('statee', '=', 'a')]\"/>"
        )
        + 1
    )
    found = _static(_module(tmp_path / "addons", views, models=_fixed_models()), "18.0")
    assert _placed(found, "error") == [("view-domain-field-unknown", line)]
