"""Static checks on small purpose-built trees: load order, dependencies, ACL refs, series."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project

XML_HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n'


def _module(root: Path, name: str, depends: list[str], data: list[str], files: dict[str, str]) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    manifest = {"name": name, "version": "17.0.1.0.0", "license": "LGPL-3", "depends": depends, "data": data}
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def _static(root: Path, module: str, series: str | None = None) -> list[Finding]:
    if series:  # the module written for that series: each module is judged by its own version
        manifest = root / module / "__manifest__.py"
        text = manifest.read_text(encoding="utf-8")
        manifest.write_text(re.sub(r"""(['"]version['"]: *['"])\d+\.0\.""", rf"\g<1>{series}.", text))
    project = load_project([root])
    if series:  # as if detected (a setting must name a supported series; a project may be any)
        project.series = series
    addons = [project.addon_set.get(module)]
    run = lint_addons_sync(project, addons, ["static"], cache=LintCache(None), digests=FileDigests())
    return run.findings


def _codes(findings: list[Finding]) -> list[tuple[str, str, int | None]]:
    return sorted((f.code, f.path, f.line) for f in findings if f.severity == "error")


def test_reference_before_definition_and_outside_dependencies(tmp_path: Path) -> None:
    _module(
        tmp_path,
        "other",
        [],
        ["data.xml"],
        {"data.xml": XML_HEAD + '<odoo><record id="g" model="res.groups"/></odoo>'},
    )
    _module(
        tmp_path,
        "shop",
        ["base"],
        ["views/menus.xml", "views/actions.xml"],
        {
            "views/menus.xml": XML_HEAD
            + '<odoo>\n<menuitem id="m" action="act"/>\n'
            + '<menuitem id="n" parent="m" groups="other.g"/>\n</odoo>',
            "views/actions.xml": XML_HEAD
            + '<odoo>\n<record id="act" model="ir.actions.act_window"/>\n</odoo>',
        },
    )
    assert _codes(_static(tmp_path, "shop")) == [
        ("xml-id-not-in-dependencies", "shop/views/menus.xml", 4),
        ("xml-id-used-before-definition", "shop/views/menus.xml", 3),
    ]


def test_acl_with_unqualified_model_of_another_module(tmp_path: Path) -> None:
    model = (
        "from odoo import models\n\nclass A(models.Model):\n    _name = 'a.thing'\n    _description = 'A'\n"
    )
    _module(tmp_path, "a", ["base"], [], {"models.py": model})
    acl = "id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
    acl += "x,x,model_a_thing,,1,0,0,0\n"
    _module(tmp_path, "b", ["a"], ["security/ir.model.access.csv"], {"security/ir.model.access.csv": acl})
    found = _static(tmp_path, "b")
    assert _codes(found) == [("acl-model-not-own", "b/security/ir.model.access.csv", 2)]
    assert "a.model_a_thing" in next(f.hint for f in found if f.code == "acl-model-not-own")
    # The defining module has no ACL of its own but b grants one: a is covered.
    assert not [f for f in _static(tmp_path, "a") if f.code == "missing-access-rule"]


def test_removed_constructs_follow_the_series(tmp_path: Path) -> None:
    view = XML_HEAD + textwrap.dedent(
        """\
        <odoo>
          <record id="v" model="ir.ui.view">
            <field name="model">res.partner</field>
            <field name="arch" type="xml">
              <tree><field name="name" attrs="{}"/><button name="x" states="draft"/></tree>
            </field>
          </record>
          <record id="a" model="ir.actions.act_window">
            <field name="view_mode">tree,form</field>
          </record>
        </odoo>"""
    )
    _module(tmp_path, "v", ["base"], ["views.xml"], {"views.xml": view})

    def codes(series: str) -> list[str]:
        return sorted({f.code for f in _static(tmp_path, "v", series) if f.source == "static"})

    assert codes("16.0") == []
    assert codes("17.0") == ["removed-attrs", "removed-states"]
    assert codes("18.0") == ["removed-attrs", "removed-states", "removed-tree", "removed-view-mode-tree"]


def test_clean_module_has_no_static_error(tmp_path: Path) -> None:
    _module(
        tmp_path,
        "ok",
        ["base"],
        ["data.xml"],
        {"data.xml": XML_HEAD + '<odoo><record id="r" model="res.groups"/></odoo>'},
    )
    assert _codes(_static(tmp_path, "ok", "18.0")) == []
