"""Units of measure categories, gone in 19.0: a domain leaf on a category becomes a child_of on
the unit its units all reach (19.0's relative_uom_id tree), any other use is a finding. Small
fake uom data of two series stand for the real ones (custom 18.0 product_dimension's
uom.uom_categ_length failed its 19.0 install)."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.uom_categories import category_roots
from odoo_tools.series import Series


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
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(18): _source(tmp_path / "odoo18", 18, OLD),
        Series(19): _source(tmp_path / "odoo19", 19, NEW),
    }


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


def test_category_leaves_become_child_of_the_root_unit(tmp_path: Path, sources: dict[Series, Path]) -> None:
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


def test_without_the_old_source_nothing_changes(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = tmp_path / "mine"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['uom']}\n")
    (module / "p.py").write_text(CODE)
    migrate([module], "19.0", odoo_sources={Series(19): sources[Series(19)]}, write=True)
    assert (module / "p.py").read_text() == CODE


def test_only_categories_whose_units_share_one_root_are_mapped(sources: dict[Series, Path]) -> None:
    gone, roots = category_roots(sources[Series(18)], sources[Series(19)])
    assert gone == {"uom.uom_categ_length", "uom.uom_categ_odd"}
    assert roots == {"uom.uom_categ_length": "uom.product_uom_millimeter"}
    assert category_roots(sources[Series(18)], sources[Series(18)]) == (
        frozenset(),
        {},
    )  # categories still there


CARRIED = """from odoo import api, models


class Ops(models.AbstractModel):
    _name = "x.ops"

    @api.model
    def _length_category(self):
        category = self.env.ref("uom.uom_categ_length", raise_if_not_found=False)
        if category:
            return category
        return self.env["uom.category"].search([("name", "ilike", "length")], limit=1)

    def lengths(self):
        length_category = self._length_category()
        if not length_category:
            return self.env["product.product"]
        return self.env["product.product"].search([("uom_id.category_id", "=", length_category.id)])

    @classmethod
    def setUpClass(cls):
        cls.length_category = cls.env.ref("uom.uom_categ_length")
"""


def _module_with(root: Path, files: dict[str, str]) -> Path:
    module = root / "mine"
    (module / "models").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['uom']}\n")
    for name, text in files.items():
        (module / "models" / name).write_text(text)
    return module


def test_a_category_carried_by_names_and_methods_becomes_its_root_unit(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    module = _module_with(tmp_path, {"ops.py": CARRIED})
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "models" / "ops.py").read_text() == CARRIED.replace(
        '"uom.uom_categ_length"', '"uom.product_uom_millimeter"'
    ).replace('("uom_id.category_id", "=", length_category.id)', '("uom_id", "child_of", length_category.id)')
    found = sorted((f.line, f.severity) for f in migrated.findings if f.code == "removed-uom-category")
    assert found == [(9, "warning"), (18, "warning"), (22, "warning")]
    assert migrated.rules_applied["removed-uom-category"] == 3


@pytest.mark.parametrize(
    ("text", "other"),
    [
        # the category's name is read: a unit's name is not a category's
        (CARRIED.replace("if not length_category:", "if not length_category.name:"), ""),
        # a method keeps the value in a create: no leaf understood
        (CARRIED + '\n    def unit(self):\n        return {"category_id": self._length_category().id}\n', ""),
        # the attribute is stored in a uom.uom create elsewhere in the module
        (CARRIED, 'VALS = {"category_id": cls.length_category.id}\n'),
        # the method is called from another file
        (CARRIED, "categories = ops._length_category()\n"),
    ],
)
def test_a_category_with_any_other_use_is_left_to_the_findings(
    tmp_path: Path, sources: dict[Series, Path], text: str, other: str
) -> None:
    module = _module_with(tmp_path, {"ops.py": text, "other.py": other})
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "models" / "ops.py").read_text() == text
    severities = sorted(f.severity for f in migrated.findings if f.code == "removed-uom-category")
    assert severities == ["error", "warning"]  # the setUpClass ref fails, the quiet one is not found
