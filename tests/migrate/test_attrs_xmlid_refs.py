"""16.0 -> 17.0: an ``attrs`` domain holding ``%(module.xml_id)d`` (OCA l10n_br_base compares
country_id with ``%(base.br)d``) was left as an error, "attrs is not a Python literal", and the
view failed its 17.0 install. Odoo's XML import replaces such a reference by the record's id in the
whole arch on both series, so it stays as written inside the new expression."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.migrate.steps.to_17.attrs import Untranslatable, attrs_expressions

VIEW = """<?xml version="1.0" encoding="utf-8"?>
<odoo>
    <record id="view_partner_form" model="ir.ui.view">
        <field name="name">res.partner.form.br</field>
        <field name="model">res.partner</field>
        <field name="inherit_id" ref="base.view_partner_form"/>
        <field name="arch" type="xml">
            <field name="vat" position="after">
                <field name="ref" attrs="{'invisible': [('country_id', '!=', %(base.br)d)]}"/>
                <field name="website"
                       attrs="{'readonly': ['|', ('country_id', 'in', [%(base.us)d, %(base.br)s]),
                                            ('name', '=', False)]}"/>
            </field>
        </field>
    </record>
</odoo>
"""


def test_xml_id_references_stay_inside_the_expression(tmp_path: Path) -> None:
    module = tmp_path / "l10n_x"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'name': 'x', 'version': '16.0.1.0.0', 'depends': ['base'], 'data': ['views/partner.xml']}\n"
    )
    (module / "views" / "partner.xml").write_text(VIEW)
    assert main(["migrate", str(module), "--to", "17.0", "--write", "--no-diff"]) == 0
    view = (module / "views" / "partner.xml").read_text()
    assert "attrs=" not in view
    assert '<field name="ref" invisible="country_id != %(base.br)d"/>' in view
    assert 'readonly="country_id in [%(base.us)d, %(base.br)s] or not name"' in view


def test_the_reference_is_only_the_odoo_spelling() -> None:
    assert attrs_expressions("{'invisible': [('a', '=', %(base.br)d)]}") == {"invisible": "a == %(base.br)d"}
    for odd in (
        "{'invisible': [('a', '=', %(base.br)x)]}",  # not a reference Odoo replaces
        "{'invisible': [('a', '=', __assista_xmlid_0__)]}",  # the rule's own placeholder name
    ):
        with pytest.raises(Untranslatable):
            attrs_expressions(odd)
