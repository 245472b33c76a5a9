"""A group's category_id when the target series puts groups under privileges (19.0): the core
privilege that took the category's groups over, nothing for a category core hid, else a privilege
added in the file. Small fake Odoo sources of two series stand for the real ones (the real 19.0
moved stock's Inventory/Inventory groups to stock.res_groups_privilege_inventory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.core_privileges import HIDDEN, manifest_category_ids, privilege_facts
from odoo_tools.series import Series

from .conftest import snapshot

_GROUP = '<record id="{id}" model="res.groups"><field name="name">{id}</field>{ref}</record>'
_HIDDEN_CATEGORY = (
    '<record id="module_category_hidden" model="ir.module.category"><field name="name">Hidden</field>'
    "</record>"
)
_PRIVILEGE = (
    '<record id="res_groups_privilege_inventory" model="res.groups.privilege"><field name="name">Inventory'
    '</field><field name="category_id" ref="base.module_category_supply_chain"/></record>'
)


def _groups(ids: tuple[str, ...], field: str = "", ref: str = "") -> str:
    line = f'<field name="{field}" ref="{ref}"/>' if field else ""
    return "".join(_GROUP.format(id=xml_id, ref=line) for xml_id in ids)


_BASE, _STOCK = ("group_no_one", "group_sys"), ("group_stock_user", "group_stock_manager")
OLD = {
    "base": ("", "", _groups(_BASE, "category_id", "module_category_hidden") + _HIDDEN_CATEGORY),
    "stock": (
        "Inventory/Inventory",
        "base",
        _groups(_STOCK, "category_id", "base.module_category_inventory_inventory"),
    ),
}
NEW = {
    "base": ("", "", _groups(_BASE) + _HIDDEN_CATEGORY),
    "stock": (
        "Supply Chain/Inventory",
        "base",
        _PRIVILEGE + _groups(_STOCK, "privilege_id", "res_groups_privilege_inventory"),
    ),
}


def _source(root: Path, major: int, modules: dict[str, tuple[str, str, str]]) -> Path:
    (root / "odoo" / "addons").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    for name, (category, depends, data) in modules.items():
        folder = root / ("odoo/addons" if name == "base" else "addons") / name
        (folder / "data").mkdir(parents=True)
        manifest = {"name": name, "category": category, "depends": [depends] if depends else []}
        (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
        (folder / "data" / "groups.xml").write_text(f"<odoo>{data}</odoo>\n")
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(18): _source(tmp_path / "odoo18", 18, OLD),
        Series(19): _source(tmp_path / "odoo19", 19, NEW),
    }


MODULE_GROUPS = """<?xml version="1.0" encoding="utf-8"?>
<odoo>
    <record id="category_mine" model="ir.module.category">
        <field name="name">Mine &amp; Co</field>
    </record>

    <record id="group_a" model="res.groups">
        <field name="name">A</field>
        <field name="category_id" ref="base.module_category_inventory_inventory"/>
    </record>
    <record id="group_b" model="res.groups">
        <field name="name">B</field>
        <field name="category_id" ref="base.module_category_hidden" />
    </record>
    <!-- two groups of my own category -->
    <record id="group_c" model="res.groups">
        <field name="name">C</field>
        <field name="category_id" ref="category_mine"/>
    </record>
    <record id="group_d" model="res.groups">
        <field name="name">D</field>
        <field name="category_id" ref="mine.category_mine"/>
        <field name="implied_ids" eval="[(4, ref('group_c'))]"/>
    </record>
</odoo>
"""


def _module(tmp_path: Path, depends: str) -> Path:
    folder = tmp_path / "addons" / "mine"
    (folder / "security").mkdir(parents=True)
    (folder / "__manifest__.py").write_text(f"{{'version': '18.0.1.0.0', 'depends': [{depends}]}}\n")
    (folder / "security" / "groups.xml").write_text(MODULE_GROUPS)
    return folder


_OWN_PRIVILEGE = """    <record id="res_groups_privilege_category_mine" model="res.groups.privilege">
        <field name="name">Mine &amp; Co</field>
        <field name="category_id" ref="category_mine"/>
    </record>

"""


def test_groups_join_the_core_privilege_or_one_added(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(tmp_path, "'stock'")
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    expected = (
        MODULE_GROUPS.replace(
            '"category_id" ref="base.module_category_inventory_inventory"',
            '"privilege_id" ref="stock.res_groups_privilege_inventory"',
        )
        .replace('        <field name="category_id" ref="base.module_category_hidden" />\n', "")
        .replace(
            '"category_id" ref="category_mine"/>', '"privilege_id" ref="res_groups_privilege_category_mine"/>'
        )
        .replace(
            '"category_id" ref="mine.category_mine"',
            '"privilege_id" ref="res_groups_privilege_category_mine"',
        )
        .replace("    <!-- two", _OWN_PRIVILEGE + "    <!-- two")
    )
    assert (module / "security" / "groups.xml").read_text() == expected
    assert migrated.rules_applied["moved-group-category"] == 4
    lines = [f.line for f in migrated.findings if f.code == "moved-group-category"]
    assert lines == [9, 13, 18, 22]


def test_without_the_privilege_module_a_privilege_is_added_in_its_category(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    """The 18.0 category is gone in 19.0: the added privilege goes in the core heir's category."""
    module = _module(tmp_path, "'base'")
    migrate([module], "19.0", odoo_sources=sources, write=True)
    text = (module / "security" / "groups.xml").read_text()
    assert (
        '    <record id="res_groups_privilege_inventory_inventory" model="res.groups.privilege">\n'
        '        <field name="name">Inventory</field>\n'
        '        <field name="category_id" ref="base.module_category_supply_chain"/>\n'
        "    </record>\n\n"
        '    <record id="group_a" model="res.groups">\n'
        '        <field name="name">A</field>\n'
        '        <field name="privilege_id" ref="res_groups_privilege_inventory_inventory"/>\n'
    ) in text
    assert "module_category_inventory_inventory" not in text


def test_a_dry_run_or_no_old_source_changes_nothing(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(tmp_path, "'stock'")
    before = snapshot(module)
    [migrated] = migrate([module], "19.0", odoo_sources=sources).modules
    assert migrated.steps[0].rules_applied["moved-group-category"] == 4
    assert snapshot(module) == before
    migrate([module], "19.0", odoo_sources={Series(19): sources[Series(19)]}, write=True)
    assert (module / "security" / "groups.xml").read_text() == MODULE_GROUPS


def test_cli_moves_categories(
    tmp_path: Path, sources: dict[Series, Path], capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    module = _module(tmp_path, "'stock'")
    argv = [
        "migrate",
        str(module),
        "--to",
        "19.0",
        "--odoo-path",
        str(sources[Series(19)]),
        "--write",
        "--no-diff",
    ]
    main([*argv, "--from-odoo-path", str(sources[Series(18)])])
    out = capsys.readouterr().out
    assert "info: mine/security/groups.xml:9: [moved-group-category]" in out
    assert 'ref="stock.res_groups_privilege_inventory"' in (module / "security" / "groups.xml").read_text()


def test_privilege_facts_compare_the_two_sources(sources: dict[Series, Path]) -> None:
    facts = privilege_facts(sources[Series(18)], sources[Series(19)])
    assert facts.outcomes == {
        "base.module_category_inventory_inventory": "stock.res_groups_privilege_inventory",
        "base.module_category_hidden": HIDDEN,
    }
    assert "base.module_category_inventory_inventory" not in facts.new_categories
    assert "base.module_category_supply_chain_inventory" in facts.new_categories
    assert facts.old_categories["base.module_category_inventory_inventory"] == "Inventory"


def test_manifest_categories_are_made_as_odoo_makes_them() -> None:
    assert manifest_category_ids("Sales & CRM/Point of Sale") == {
        "base.module_category_sales_and_crm": "Sales & CRM",
        "base.module_category_sales_and_crm_point_of_sale": "Point of Sale",
    }
    assert manifest_category_ids("") == {}
