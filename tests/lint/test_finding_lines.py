"""Findings on XML sit at the attribute's line, not where lxml says a multi-line start tag ends:
that is the line a pull request changes, so ``--new-only`` and review annotations see them."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.index import attribute_line
from tests.lint.test_static_checks import XML_HEAD, _module, _static

MENUS = (
    XML_HEAD  # line 1
    + "<odoo>\n"  # 2
    + "    <menuitem\n"  # 3
    + '        id="menu_things"\n'  # 4
    + '        name="Things"\n'  # 5
    + '        parent="nowhere.menu_root"\n'  # 6
    + "    />\n"  # 7
    + "    <menuitem\n"  # 8
    + '        id="menu_things"\n'  # 9
    + '        name="Things again"\n'  # 10
    + "    />\n"  # 11
    + '    <record id="view_things" model="ir.ui.view">\n'  # 12
    + '        <field name="model">res.partner</field>\n'  # 13
    + '        <field\n            name="inherit_id"\n            ref="nowhere.view"\n        />\n'  # 14-17
    + "    </record>\n"
    + "</odoo>\n"
)


def test_findings_on_multi_line_tags_point_at_the_attribute(tmp_path: Path) -> None:
    _module(tmp_path, "x", ["base"], ["views/menus.xml"], {"views/menus.xml": MENUS})
    found = {(f.code, f.line) for f in _static(tmp_path, "x", "18.0") if f.path == "x/views/menus.xml"}
    assert ("duplicate-xml-id", 9) in found  # the second id=, not the /> two lines below
    undefined = sorted(line or 0 for code, line in found if code == "xml-id-not-in-dependencies")
    assert undefined == [6, 16], found


def test_attribute_line_falls_back_to_the_tag_line_when_unsure() -> None:
    lines = ["<odoo>", "  <record", "     id='a'", "     model='x'>", "  <record id='b' model='y'/>"]
    assert attribute_line(lines, 4, "id") == 3
    assert attribute_line(lines, 5, "id") == 5
    assert attribute_line(lines, 4, "groups") == 4  # not in the tag: stay where lxml put it
    assert attribute_line(lines, 2, "data-id") == 2
