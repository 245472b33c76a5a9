"""Units of measure categories, gone in 19.0: a domain leaf on a category becomes a child_of on
the unit its units all reach (19.0's relative_uom_id tree), any other use is a finding. Small
fake uom data of two series stand for the real ones (custom 18.0 product_dimension's
uom.uom_categ_length failed its 19.0 install)."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate._uom_categories import category_roots


def _unit(xml_id: str, field: str = "", ref: str = "") -> str:
    inner = f'<field name="{field}" ref="{ref}"/>' if field else f'<field name="name">{xml_id}</field>'
    return f'<record id="{xml_id}" model="uom.uom">{inner}</record>'


OLD = (
    '<record id="uom_categ_length" model="uom.category"><field name="name">Length</field></record>'
    '<record id="uom_categ_odd" model="uom.category"><field name="name">Odd</field></record>'
    + _unit("product_uom_meter", "category_id", "uom_categ_length")
    + _unit("product_uom_km", "category_id", "uom_categ_length")
    + _unit("odd_a", "category_id", "uom_categ_odd")
    + _unit("odd_b", "category_id", "uom_categ_odd")
)
NEW = (
    _unit("product_uom_millimeter")
    + _unit("product_uom_meter", "relative_uom_id", "uom.product_uom_millimeter")
    + _unit("product_uom_km", "relative_uom_id", "product_uom_meter")
    + _unit("odd_a")
    + _unit("odd_b")
)


def _source(root: Path, major: int, data: str) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    folder = root / "addons" / "uom"
    (folder / "data").mkdir(parents=True)
    (folder / "__manifest__.py").write_text("{'name': 'uom', 'depends': ['base']}\n")
    (folder / "data" / "uom_data.xml").write_text(f"<odoo>{data}</odoo>\n")
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[int, Path]:
    return {18: _source(tmp_path / "odoo18", 18, OLD), 19: _source(tmp_path / "odoo19", 19, NEW)}


CODE = """from odoo import models


class P(models.Model):
    _inherit = "product.product"

    def _domain(self):
        return [("category_id", "=", self.env.ref("uom.uom_categ_length").id)]  # lengths

    def _products(self):
        return self.search([('uom_id.category_id', '=', self.env.ref('uom.uom_categ_length').id)])

    def _odd(self):
        odd = self.env.ref("uom.uom_categ_odd")
        maybe = self.env.ref("uom.uom_categ_length", raise_if_not_found=False)
        return [("category_id", "=", odd.id)], maybe
"""


def test_category_leaves_become_child_of_the_root_unit(tmp_path: Path, sources: dict[int, Path]) -> None:
    module = tmp_path / "mine"
    (module / "models").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['uom']}\n")
    (module / "models" / "p.py").write_text(CODE)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "models" / "p.py").read_text() == CODE.replace(
        '("category_id", "=", self.env.ref("uom.uom_categ_length").id)',
        '("id", "child_of", self.env.ref("uom.product_uom_millimeter").id)',
    ).replace(
        "('uom_id.category_id', '=', self.env.ref('uom.uom_categ_length').id)",
        "('uom_id', 'child_of', self.env.ref('uom.product_uom_millimeter').id)",
    )
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "removed-uom-category"]
    assert sorted(found) == [(8, "warning"), (11, "warning"), (14, "error"), (15, "warning")]
    assert migrated.rules_applied["removed-uom-category"] == 2


def test_without_the_old_source_nothing_changes(tmp_path: Path, sources: dict[int, Path]) -> None:
    module = tmp_path / "mine"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['uom']}\n")
    (module / "p.py").write_text(CODE)
    migrate([module], "19.0", odoo_sources={19: sources[19]}, write=True)
    assert (module / "p.py").read_text() == CODE


def test_only_categories_whose_units_share_one_root_are_mapped(sources: dict[int, Path]) -> None:
    gone, roots = category_roots(sources[18], sources[19])
    assert gone == {"uom.uom_categ_length", "uom.uom_categ_odd"}
    assert roots == {"uom.uom_categ_length": "uom.product_uom_millimeter"}
    assert category_roots(sources[18], sources[18]) == (frozenset(), {})  # categories still there
