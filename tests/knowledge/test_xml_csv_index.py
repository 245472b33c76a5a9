"""XML and CSV data files."""

from __future__ import annotations

from odoo_tools.index._csv_index import parse_csv
from odoo_tools.index._xml_index import parse_xml

XML = b"""<?xml version="1.0"?>
<odoo>
    <record id="view_form" model="ir.ui.view">
        <field name="model">x.thing</field>
        <field name="priority">5</field>
        <field name="arch" type="xml"><form><field name="a"/></form></field>
    </record>
    <record id="view_ext" model="ir.ui.view">
        <field name="model">x.thing</field>
        <field name="inherit_id" ref="other.view_base"/>
        <field name="mode">primary</field>
        <field name="arch" type="xml"><xpath expr="//form" position="inside"/></field>
    </record>
    <data noupdate="1">
        <record id="rule" model="ir.rule">
            <field name="model_id" ref="model_x_thing"/>
            <field name="domain_force">[(1, '=', 1)]</field>
            <field name="groups" eval="[(4, ref('base.group_user')), (4, ref('grp'))]"/>
        </record>
    </data>
    <record id="act" model="ir.actions.act_window">
        <field name="name">Things</field>
        <field name="res_model">x.thing</field>
    </record>
    <menuitem id="root" name="Root">
        <menuitem id="child" name="Child" action="act" sequence="3"/>
    </menuitem>
    <menuitem id="other" parent="base.menu_x" groups="grp,-base.group_portal"/>
    <template id="tpl" inherit_id="web.layout" priority="9"><xpath expr="." position="inside"/></template>
    <record model="res.partner"><field name="name">anonymous</field></record>
</odoo>
"""


def test_records_are_module_qualified_with_lines() -> None:
    data = parse_xml(XML, "m/views/x.xml", "m")
    ids = [(r.xml_id, r.model, r.line, r.noupdate) for r in data.records]
    assert ids == [
        ("m.view_form", "ir.ui.view", 3, False),
        ("m.view_ext", "ir.ui.view", 8, False),
        ("m.rule", "ir.rule", 15, True),
        ("m.act", "ir.actions.act_window", 21, False),
        ("m.root", "ir.ui.menu", 25, False),
        ("m.child", "ir.ui.menu", 26, False),
        ("m.other", "ir.ui.menu", 28, False),
        ("m.tpl", "ir.ui.view", 29, False),
    ]


def test_views() -> None:
    views = {v.xml_id: v for v in parse_xml(XML, "m/x.xml", "m").views}
    form, ext, tpl = views["m.view_form"], views["m.view_ext"], views["m.tpl"]
    assert (form.model, form.type, form.priority, form.mode, form.inherit_id) == (
        "x.thing",
        "form",
        5,
        "primary",
        "",
    )
    assert (ext.type, ext.inherit_id, ext.mode) == ("", "other.view_base", "primary")
    assert (tpl.type, tpl.inherit_id, tpl.mode, tpl.priority) == ("qweb", "web.layout", "extension", 9)


def test_menus_actions_rules() -> None:
    data = parse_xml(XML, "m/x.xml", "m")
    menus = {m.xml_id: m for m in data.menus}
    assert menus["m.child"].parent == "m.root" and menus["m.child"].action == "m.act"
    assert menus["m.child"].sequence == 3
    assert menus["m.other"].parent == "base.menu_x"
    assert menus["m.other"].groups == ("m.grp", "base.group_portal")
    (action,) = data.actions
    assert (action.xml_id, action.res_model, action.name) == ("m.act", "x.thing", "Things")
    (rule,) = data.rules
    assert (rule.model_ref, rule.groups) == ("m.model_x_thing", ("base.group_user", "m.grp"))


def test_malformed_xml_is_a_finding() -> None:
    data = parse_xml(b"<odoo><record id='a'></odoo>", "m/bad.xml", "m")
    (finding,) = data.findings
    assert (finding.code, finding.path, finding.module) == ("xml-syntax", "m/bad.xml", "m")
    assert finding.line == 1


def test_entities_are_not_expanded(tmp_path: object) -> None:
    evil = b"""<?xml version="1.0"?>
<!DOCTYPE odoo [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<odoo><record id="r" model="x"><field name="name">&secret;</field></record></odoo>"""
    data = parse_xml(evil, "m/x.xml", "m")
    assert [r.xml_id for r in data.records] == ["m.r"]


def test_non_odoo_xml_is_indexed_empty() -> None:
    data = parse_xml(b"<templates><t t-name='x'/></templates>", "m/static/x.xml", "m")
    assert data.records == () and data.findings == ()


def test_access_csv() -> None:
    text = (
        "id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
        "access_a,a,model_x_thing,grp,1,1,0,0\n"
        "\n"
        "access_b,b,other.model_y,,1,0,0,0\n"
    )
    data = parse_csv(text.encode(), "m/security/ir.model.access.csv", "m")
    rows = [
        (r.xml_id, r.model_ref, r.group, r.perm_read, r.perm_write, r.perm_create, r.line)
        for r in data.access
    ]
    assert rows == [
        ("m.access_a", "m.model_x_thing", "m.grp", True, True, False, 2),
        ("m.access_b", "other.model_y", "", True, False, False, 4),
    ]
    assert [r.model for r in data.records] == ["ir.model.access", "ir.model.access"]


def test_bad_csv_is_a_finding() -> None:
    assert [f.code for f in parse_csv(b"\xff\xfe,\n", "m/x.csv", "m").findings] == ["csv-error"]
    no_id = parse_csv(b"name,bic\nBank,XX\n", "m/res.bank.csv", "m")  # loaded by Odoo without xml ids
    assert no_id.findings == () and no_id.records == ()
