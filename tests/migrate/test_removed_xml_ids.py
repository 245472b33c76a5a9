"""References to core external IDs the step removed, read from two small fake Odoo sources:
an error at the line of each one the old series surely had and the new one surely lacks
(``product.list0`` in a test's setUpClass, ``base.field_res_company__favicon``, a demo record),
nothing for the module's own ids, other modules', or ids the new series may still make."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.migrate import migrate
from odoo_tools.series import Series

RULE = "removed-core-xml-id"
PRODUCT_DATA = """<odoo>
    <record id="list0" model="product.pricelist"><field name="name">Public</field></record>
    <record id="kept" model="product.pricelist"><field name="name">Kept</field></record>
    <record id="gone_action" model="ir.actions.act_window"><field name="name">A</field></record>
    <menuitem id="gone_menu" name="Menu"/>
    <template id="gone_template"><div/></template>
    <record id="kept_by_mine" model="x"/>
</odoo>
"""
NEW_PRODUCT_DATA = """<odoo>
    <record id="kept" model="product.pricelist"><field name="name">Kept</field></record>
</odoo>
"""
PRICELIST = """from odoo import fields, models


class Pricelist(models.Model):
    _name = "product.pricelist"

    name = fields.Char()
"""
GONE_MODEL = """from odoo import fields, models


class Gone(models.Model):
    _name = "product.gone"
"""
COMPANY = """from odoo import fields, models


class Company(models.Model):
    _name = "res.company"

    name = fields.Char()
{}"""
LOGO = """from odoo import fields, models


class LogoMixin(models.AbstractModel):
    _name = "logo.mixin"

    logo = fields.Binary()


class Company(models.Model):
    _name = "res.company"
    _inherit = ["res.company", "logo.mixin"]
"""
TEST = """from odoo.tests import TransactionCase


class TestPrices(TransactionCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pricelist = cls.env.ref("product.list0")
        cls.maybe = cls.env.ref("product.list0", raise_if_not_found=False)
        cls.kept = cls.env.ref("product.kept")
        cls.own = cls.env.ref("mine.list0")
        cls.other = cls.env.ref("other_repo.list0")
        try:
            cls.guarded = cls.env.ref("product.list0")
        except ValueError:
            cls.guarded = None
        cls.favicon = cls.env.ref("base.field_res_company__favicon")
        cls.name_field = cls.env.ref("base.field_res_company__name")
        cls.by_code = cls.env.ref("product.made_by_code")
        cls.category = cls.browse_ref("product.demo_category")
        cls.model = cls.env.ref("product.model_product_gone")
        cls.category_of_modules = cls.env.ref("base.module_category_gone")
        cls.logo = cls.env.ref("base.field_res_company__logo")  # 17.0 has it from a mixin
        cls.kept_by_mine = cls.env.ref("product.kept_by_mine")  # the module's data creates it
"""
VIEWS = """<odoo>
    <record id="sale_pricelist" model="res.partner">
        <field name="pricelist_id" ref="product.list0"/>
        <field name="other_ids" eval="[(4, ref('product.list0')), (4, ref('product.kept'))]"/>
    </record>
    <record id="view" model="ir.ui.view">
        <field name="arch" type="xml">
            <form>
                <button
                    type="action"
                    name="%(product.gone_action)d"
                />
            </form>
        </field>
    </record>
    <menuitem id="mine_menu" parent="product.gone_menu" name="Mine"/>
    <template id="mine_template" inherit_id="product.gone_template"><div position="inside"/></template>
</odoo>
"""


def _source(root: Path, major: int, files: dict[str, str]) -> Path:
    release = f"version_info = ({major}, 0, 0, 'final', 0, '')\n"
    for rel, text in {"odoo/addons/base/__manifest__.py": "{}", "odoo/release.py": release, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    product_manifest = "{'data': ['data/product_data.xml'], 'demo': ['data/product_demo.xml']}"
    old = _source(
        tmp_path / "odoo16",
        16,
        {
            "odoo/addons/base/models/res_company.py": COMPANY.format(
                "    favicon = fields.Binary()\n    logo = fields.Binary()\n"
            ),
            # made from the manifests' categories of whatever addons are on the path: unsure
            "odoo/addons/base/__manifest__.py": "{'data': ['data/categories.xml']}",
            "odoo/addons/base/data/categories.xml": '<odoo><record id="module_category_gone" model="x"/>'
            "</odoo>",
            "addons/product/__manifest__.py": "{'data': ['data/product_data.xml', 'data/product_made.xml'], "
            "'demo': ['data/product_demo.xml']}",
            "addons/product/data/product_data.xml": PRODUCT_DATA,
            "addons/product/data/product_demo.xml": '<odoo><record id="demo_category" model="x"/></odoo>',
            "addons/product/models/pricelist.py": PRICELIST,
            "addons/product/models/gone.py": GONE_MODEL,
            "addons/product/data/product_made.xml": '<odoo><record id="made_by_code" model="x"/></odoo>',
        },
    )
    new = _source(
        tmp_path / "odoo17",
        17,
        {
            "odoo/addons/base/models/res_company.py": COMPANY.format(""),
            "odoo/addons/base/models/logo.py": LOGO,
            "addons/product/__manifest__.py": product_manifest,
            "addons/product/data/product_data.xml": NEW_PRODUCT_DATA,
            "addons/product/models/pricelist.py": PRICELIST,
            "addons/product/hooks.py": "def post_init(env):\n    env['ir.model.data']._update_xmlids("
            "[{'xml_id': 'product.made_by_code', 'record': env.company}])\n",
        },
    )
    return {Series(16): old, Series(17): new}


@pytest.fixture
def module(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    for rel, text in {
        "__manifest__.py": "{'version': '16.0.1.0.0', 'depends': ['product'], "
        "'data': ['security/ir.model.access.csv', 'views/views.xml', 'views/own.xml']}\n",
        "tests/test_prices.py": TEST,
        "views/views.xml": VIEWS,
        "views/unlisted.xml": '<odoo><record id="x" model="y"><field name="a" ref="product.list0"/>'
        "</record></odoo>",
        "views/own.xml": '<odoo><record id="x" model="y"><field name="a" ref="product.gone_action"/>'
        '</record><record id="product.kept_by_mine" model="y"/></odoo>',
        "security/ir.model.access.csv": "id,name,model_id:id,group_id:id,perm_read\n"
        "access_gone,gone,product.model_product_gone,base.group_user,1\n",
    }.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def test_each_reference_to_a_core_id_the_target_lost_is_an_error_at_its_line(
    module: Path, sources: dict[Series, Path], isolated_env: Path
) -> None:
    [migrated] = migrate([module], "17.0", odoo_sources=sources).modules
    found = sorted(
        (f.path, f.line, f.severity, f.message.split(" is gone")[0])
        for f in migrated.findings
        if f.code == RULE
    )
    assert found == [
        ("mine/security/ir.model.access.csv", 2, "error", "product.model_product_gone"),
        ("mine/tests/test_prices.py", 8, "error", "product.list0"),
        ("mine/tests/test_prices.py", 17, "error", "base.field_res_company__favicon"),
        ("mine/tests/test_prices.py", 20, "error", "product.demo_category"),
        ("mine/tests/test_prices.py", 21, "error", "product.model_product_gone"),
        ("mine/views/own.xml", 1, "error", "product.gone_action"),
        ("mine/views/views.xml", 3, "error", "product.list0"),
        ("mine/views/views.xml", 4, "error", "product.list0"),
        ("mine/views/views.xml", 11, "error", "product.gone_action"),
        ("mine/views/views.xml", 16, "error", "product.gone_menu"),
        ("mine/views/views.xml", 17, "error", "product.gone_template"),
    ]
    messages = {f.message.split(" is gone")[0]: f.message for f in migrated.findings if f.code == RULE}
    assert "a demo record, which exists only in databases with demo data" in messages["product.demo_category"]
    assert "field's ir.model.fields record" in messages["base.field_res_company__favicon"]
    assert "External ID not found" in messages["product.list0"]
    assert (module / "tests" / "test_prices.py").read_text() == TEST  # a finding: nothing rewritten


def test_without_the_old_source_the_two_packs_say_it(
    module: Path, sources: dict[Series, Path], isolated_env: Path
) -> None:
    """One source alone is never paired with the other series' pack: the bundled 16.0 and 17.0
    packs (a real registry each) stand in for both, so only what real Odoo removed is said
    (product.list0 and res.company's favicon field are gone in 17.0), never what the lone made-up
    source lacks."""
    [alone] = migrate([module], "17.0", odoo_sources={Series(17): sources[Series(17)]}).modules
    said = {f.message.split(" is gone")[0] for f in alone.findings if f.code == RULE}
    assert said == {"product.list0", "base.field_res_company__favicon"}
    unchecked = alone.steps[0].unchecked
    assert not any("references to core external IDs the step removed" in note for note in unchecked)


def test_an_id_the_new_series_still_gives_elsewhere_is_not_said(
    module: Path, sources: dict[Series, Path], isolated_env: Path
) -> None:
    """The record moved to another file of the same addon, or another addon's data names it:
    the id exists in 17.0 and nothing is said of it."""
    (sources[Series(17)] / "addons/product/data/moved.xml").write_text(
        '<odoo><record id="list0" model="product.pricelist"/>'
        '<record id="product.gone_menu" model="x"/></odoo>'
    )
    [migrated] = migrate([module], "17.0", odoo_sources=sources).modules
    said = {f.message.split(" is gone")[0] for f in migrated.findings if f.code == RULE}
    assert said == {
        "product.model_product_gone",
        "base.field_res_company__favicon",
        "product.demo_category",
        "product.gone_action",
        "product.gone_template",
    }


def test_cli_reports_them_and_exits_1(
    module: Path, sources: dict[Series, Path], capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    argv = ["migrate", str(module), "--to", "17.0", "--odoo-path", str(sources[Series(17)]), "--no-diff"]
    assert main([*argv, "--from-odoo-path", str(sources[Series(16)])]) == 1
    out = capsys.readouterr().out
    assert (
        "error: mine/tests/test_prices.py:8: [removed-core-xml-id] product.list0 is gone from Odoo 17.0"
        in out
    )
