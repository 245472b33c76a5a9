"""Without any Odoo source, migrate compares the two series' packs where it compared the two
sources: a small fake 17.0 and 18.0 core given both ways (their files, and the packs a registry of
them gives) migrates a module alike: the renamed method, the removed parameter, the override of a
removed method, the gone external ID, the gone view anchor. A source given still wins."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.series import PACKS_ENV, Series, pack_diff

OLD_PRODUCT = """from odoo import models


class Product(models.Model):
    _name = "product.product"

    def price_compute(self, price_type):
        return {}

    def _lines(self, domain, lock=True):
        return []

    def old_hook(self):
        return True
"""
NEW_PRODUCT = """from odoo import models


class Product(models.Model):
    _name = "product.product"

    def _price_compute(self, price_type):
        return {}

    def _lines(self, domain):
        return []
"""
OLD_DATA = """<odoo>
    <record id="list0" model="product.pricelist"><field name="name">Public</field></record>
    <record id="product_form" model="ir.ui.view">
        <field name="model">product.product</field>
        <field name="arch" type="xml"><form><group name="old_group"><field name="name"/></group></form>
        </field>
    </record>
</odoo>
"""
NEW_DATA = """<odoo>
    <record id="product_form" model="ir.ui.view">
        <field name="model">product.product</field>
        <field name="arch" type="xml"><form><group name="new_group"><field name="name"/></group></form>
        </field>
    </record>
</odoo>
"""
MODULE_PY = """from odoo import models


class Product(models.Model):
    _inherit = "product.product"

    def price_compute(self, price_type):
        return super().price_compute(price_type)

    def _lines(self, domain, lock=True):
        return super()._lines(domain, lock=lock)

    def old_hook(self):
        return super().old_hook()
"""
MODULE_VIEWS = """<odoo>
    <record id="form" model="ir.ui.view">
        <field name="model">product.product</field>
        <field name="inherit_id" ref="product.product_form"/>
        <field name="arch" type="xml">
            <group name="old_group" position="after"><group name="mine"/></group>
        </field>
    </record>
    <record id="mine" model="x"><field name="pricelist_id" ref="product.list0"/></record>
</odoo>
"""


def _source(root: Path, major: int, product: str, data: str) -> Path:
    files = {
        "odoo/release.py": f"version_info = ({major}, 0, 0, 'final', 0, '')\n",
        "odoo/addons/base/__manifest__.py": "{}",
        "odoo/addons/product/__manifest__.py": "{'depends': ['base'], 'data': ['data/product.xml']}",
        "odoo/addons/product/models/product.py": product,
        "odoo/addons/product/data/product.xml": data,
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _pack(series: str, methods: dict[str, str], xmlids: dict[str, str], group: str) -> dict[str, Any]:
    """What a registry of the fake core gives (format 1)."""
    form = ["form", {}, [["group", {"name": group}, [["field", {"name": "name"}, []]]]]]
    return {
        "format": 1,
        "series": series,
        "made_by": {"odoo_version": series, "modules": 2, "date": "2026-11-28", "installed": True},
        "modules": {
            "base": {"depends": [], "auto_install": False, "order": 0},
            "product": {"depends": ["base"], "auto_install": False, "order": 1},
        },
        "framework_methods": {},
        "models": {
            "product.product": {
                "modules": ["product"],
                "abstract": False,
                "transient": False,
                "fields": {"name": {"type": "char", "modules": ["product"]}},
                "methods": {
                    name: {"params": params, "modules": ["product"]} for name, params in methods.items()
                },
            }
        },
        "xmlids": {"product": {**xmlids, "product_form": "ir.ui.view"}},
        "views": {
            "product.product_form": {
                "model": "product.product",
                "type": "form",
                "mode": "primary",
                "priority": 16,
                "inherit_id": None,
                "module": "product",
                "order": 1,
                "active": True,
                "arch": form,
            }
        },
        "python_names": {},
    }


@pytest.fixture
def core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[Series, Path]:
    packs = tmp_path / "packs"
    packs.mkdir()
    old_methods = {
        "price_compute": "(self, price_type)",
        "_lines": "(self, domain, lock=True)",
        "old_hook": "(self)",
    }
    new_methods = {"_price_compute": "(self, price_type)", "_lines": "(self, domain)"}
    for series, pack in (
        ("17.0", _pack("17.0", old_methods, {"list0": "product.pricelist"}, "old_group")),
        ("18.0", _pack("18.0", new_methods, {}, "new_group")),
    ):
        (packs / f"{series}.json.gz").write_bytes(
            gzip.compress(json.dumps(pack, sort_keys=True, separators=(",", ":")).encode())
        )
    monkeypatch.setenv(PACKS_ENV, str(packs))
    return {
        Series(17): _source(tmp_path / "odoo17", 17, OLD_PRODUCT, OLD_DATA),
        Series(18): _source(tmp_path / "odoo18", 18, NEW_PRODUCT, NEW_DATA),
    }


def _module(root: Path) -> Path:
    folder = root / "mine"
    for rel, text in {
        "__manifest__.py": "{'version': '17.0.1.0.0', 'depends': ['product'], 'data': ['views/views.xml']}\n",
        "__init__.py": "from . import models\n",
        "models.py": MODULE_PY,
        "views/views.xml": MODULE_VIEWS,
    }.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def _migrated(
    folder: Path, sources: dict[Series, Path] | None
) -> tuple[dict[str, str], list[tuple[str, str, int | None]]]:
    [module] = migrate([folder], "18.0", write=True, odoo_sources=sources).modules
    texts = {
        p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()
    }
    return texts, sorted((f.code, f.path, f.line) for f in module.findings)


def test_the_packs_migrate_a_module_as_the_sources_do(tmp_path: Path, core: dict[Series, Path]) -> None:
    module = _module(tmp_path / "a")
    copy = tmp_path / "b" / "mine"
    shutil.copytree(module, copy)
    with_sources = _migrated(module, core)
    with_packs = _migrated(copy, None)
    assert with_packs == with_sources
    texts, findings = with_packs
    assert "def _price_compute(self, price_type):" in texts["models.py"]  # renamed core method
    assert "def _lines(self, domain):" in texts["models.py"]  # the parameter 18.0 took away
    assert "super()._lines(domain)" in texts["models.py"]
    codes = {(code, line) for code, _path, line in findings}
    assert ("removed-core-method", 13) in codes  # old_hook's super() has nothing to call
    assert any(code == "removed-core-xml-id" for code, _line in codes)  # product.list0
    # group old_group: gone, and the old view tells what took its place
    assert ("retargeted-view-anchor", 6) in codes


def test_the_pack_diff_tells_the_step(core: dict[Series, Path]) -> None:
    diff = pack_diff("17.0", "18.0")
    assert diff is not None
    assert diff.gone_xmlids == {"product.list0"}
    assert diff.gone_methods == {("product.product", "price_compute"), ("product.product", "old_hook")}
    assert diff.changed_signatures == {
        ("product.product", "_lines"): ("(self, domain, lock=True)", "(self, domain)")
    }


def test_without_the_packs_and_sources_nothing_is_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PACKS_ENV, str(tmp_path))  # no pack there: the bundled ones are read
    module = _module(tmp_path / "a")
    [migrated] = migrate([module], "18.0", from_series="17.0").modules
    # the real 17.0 and 18.0 packs know no product.product.old_hook: nothing said of it
    assert not [f for f in migrated.findings if f.code == "removed-core-method" and "old_hook" in f.message]
