"""strict-attribute-spec mirrors one 18.0 check, in Odoo's own apply_inheritance_specs: an
``<attribute>`` of a ``position="attributes"`` spec takes name/add/remove/separator and data-oe-*.
Where Odoo's inheritance may not be the one applying the spec (the module overrides
apply_inheritance_specs, or depends on a module outside the core), the attribute stays and a
warning says why, through the migrate CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main

VIEW = """<odoo>
    <record id="v" model="ir.ui.view">
        <field name="model">res.partner</field>
        <field name="inherit_id" ref="base.view_partner_form"/>
        <field name="arch" type="xml">
            <field name="name" position="attributes">
                <attribute name="context" operation="update">{'a': 1}</attribute>
            </field>
        </field>
    </record>
</odoo>
"""

OVERRIDE = """from odoo import models


class View(models.Model):
    _inherit = "ir.ui.view"

    def apply_inheritance_specs(self, source, specs_tree, pre_locate=lambda s: True):
        return super().apply_inheritance_specs(source, specs_tree, pre_locate=pre_locate)
"""


def _module(tmp_path: Path, depends: list[str], python: str = "") -> Path:
    folder = tmp_path / "ext"
    (folder / "views").mkdir(parents=True)
    (folder / "__manifest__.py").write_text(f"{{'version': '17.0.1.0.0', 'depends': {depends!r}}}\n")
    (folder / "__init__.py").write_text("from . import view\n" if python else "")
    if python:
        (folder / "view.py").write_text(python)
    (folder / "views" / "v.xml").write_text(VIEW)
    return folder


@pytest.mark.parametrize(
    ("depends", "python"), [(["base"], OVERRIDE), (["base_view_inheritance_extension"], "")]
)
def test_an_extended_inheritance_keeps_the_attribute(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], depends: list[str], python: str
) -> None:
    folder = _module(tmp_path, depends, python)
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    assert 'operation="update"' in (folder / "views" / "v.xml").read_text()
    out = capsys.readouterr().out
    assert "warning: ext/views/v.xml:7: [strict-attribute-spec]" in out


def test_odoo_s_own_inheritance_drops_it(tmp_path: Path) -> None:
    folder = _module(tmp_path, ["base"])
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    text = (folder / "views" / "v.xml").read_text()
    assert "operation=" not in text and "<attribute name=\"context\">{'a': 1}</attribute>" in text
