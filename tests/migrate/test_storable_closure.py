"""18.0's ``is_storable`` is stock's field (the 18.0 pack says which module defines it): a storable
product of a module that does not depend on stock becomes a goods product (``'consu'``) without
it, through the migrate CLI; with stock in the dependency closure it keeps ``is_storable``."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main

DATA = """<odoo>
    <record id="p" model="product.template">
        <field name="name">P</field>
        <field name="detailed_type">product</field>
    </record>
</odoo>
"""

TEST = """from odoo.tests import TransactionCase


class TestFee(TransactionCase):
    def test_product(self):
        product = self.env["product.product"].create({"name": "x", "detailed_type": "product"})
        self.assertTrue(product.type == "product")
        self.assertFalse(self.env["product.product"].search([("type", "=", "product")], limit=0))
"""


def _module(tmp_path: Path, depends: list[str]) -> Path:
    folder = tmp_path / "fee"
    (folder / "data").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "__manifest__.py").write_text(f"{{'version': '17.0.1.0.0', 'depends': {depends!r}}}\n")
    (folder / "__init__.py").write_text("")
    (folder / "data" / "p.xml").write_text(DATA)
    (folder / "tests" / "test_fee.py").write_text(TEST)
    return folder


def test_without_stock_a_goods_product(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _module(tmp_path, ["delivery"])  # sale and product, not stock
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    data = (folder / "data" / "p.xml").read_text()
    assert '<field name="type">consu</field>' in data and "is_storable" not in data
    test = (folder / "tests" / "test_fee.py").read_text()
    assert 'create({"name": "x", "type": "consu"})' in test
    assert 'product.type == "consu"' in test and '[("type", "=", "consu")]' in test
    assert "is_storable" not in test


def test_with_stock_the_storable_flag(tmp_path: Path) -> None:
    folder = _module(tmp_path, ["sale_stock"])  # stock through sale_stock
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    assert '<field name="is_storable" eval="True"/>' in (folder / "data" / "p.xml").read_text()
    test = (folder / "tests" / "test_fee.py").read_text()
    assert '"type": "consu", "is_storable": True' in test and "product.is_storable" in test


def test_a_dependency_outside_the_core_may_bring_stock(tmp_path: Path) -> None:
    folder = _module(tmp_path, ["delivery", "stock_oca_extension"])  # not in the 18.0 pack
    assert main(["migrate", str(folder), "--to", "18.0", "--write", "--no-diff"]) == 0
    assert '<field name="is_storable" eval="True"/>' in (folder / "data" / "p.xml").read_text()
