"""Overrides of a core method whose parameter the step removed, read from the two sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate._signatures import Signature, removed_parameters

MIXIN = """from odoo import models


class SequenceMixin(models.AbstractModel):
    _name = "sequence.mixin"

    def _get_last_sequence(self, relaxed=False, with_prefix=None{lock}):
        return self


class AccountMove(models.Model):
    _name = "account.move"
    _inherit = ["mail.thread", "sequence.mixin"]
"""
BASE = "class BaseModel:\n    def copy(self, default=None{extra}):\n        pass\n"


def _source(root: Path, lock: str, extra: str) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "models.py").write_text(BASE.format(extra=extra))
    (root / "addons" / "account" / "models").mkdir(parents=True)
    (root / "addons" / "account" / "__manifest__.py").write_text("{'name': 'account'}")
    (root / "addons" / "account" / "models" / "sequence.py").write_text(MIXIN.format(lock=lock))
    return root


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_a_parameter_the_core_method_lost_leaves_the_override(tmp_path: Path) -> None:
    old = _source(tmp_path / "odoo16", ", lock=True", ", flag=False")
    new = _source(tmp_path / "odoo17", "", "")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "move.py").write_text(
        "class AccountMove(models.Model):\n"
        '    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False, with_prefix=None, lock=True):\n"
        "        if lock:  # the caller's lock\n"
        "            self.flush()\n"
        "        return super()._get_last_sequence(relaxed, None, lock)\n\n"
        "    def copy(self, default=None, flag=False):\n"
        "        return super().copy(default, flag=flag)\n\n"
        "    def other(self, lock):\n"
        "        return lock\n"
    )
    [migrated] = migrate([module], "17.0", write=True, odoo_sources={16: old, 17: new}).modules
    assert (module / "move.py").read_text() == (
        "class AccountMove(models.Model):\n"
        '    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False, with_prefix=None):\n"
        "        if True:  # the caller's lock\n"
        "            self.flush()\n"
        "        return super()._get_last_sequence(relaxed, None)\n\n"
        "    def copy(self, default=None):\n"
        "        return super().copy(default)\n\n"
        "    def other(self, lock):\n"
        "        return lock\n"
    )
    assert migrated.steps[0].rules_applied["removed-method-parameter"] == 2
    lines = sorted(f.line or 0 for f in migrated.findings if f.code == "removed-method-parameter")
    assert lines == [4, 9]


def test_without_the_old_source_nothing_is_guessed(tmp_path: Path) -> None:
    new = _source(tmp_path / "odoo17", "", "")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    text = (
        'class M(models.Model):\n    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False, with_prefix=None, lock=True):\n"
        "        return super()._get_last_sequence(relaxed, None, lock)\n"
    )
    (module / "move.py").write_text(text)
    migrate([module], "17.0", write=True, odoo_sources={17: new})
    assert (module / "move.py").read_text() == text


def test_a_renamed_parameter_is_not_removed() -> None:
    """18.0 -> 19.0 renamed write(self, values) to write(self, vals) in places: the override's
    argument still arrives by position, so nothing is dropped."""
    old = Signature(("values",))
    assert removed_parameters(old, Signature(("vals",))) == ()
    assert removed_parameters(Signature(("a", "b")), Signature(("a", "c"), (("c", "None"),))) == ()
    assert removed_parameters(Signature(("a", "lock")), Signature(("a",))) == ("lock",)
    assert removed_parameters(Signature(("a", "lock")), Signature(("a",), open_ended=True)) == ()


def test_a_renamed_core_method_renames_the_override(tmp_path: Path) -> None:
    """16.0's product price_compute() is _price_compute() in 17.0, same parameters (OCA
    product_supplierinfo_for_customer: 'super' object has no attribute 'price_compute')."""
    old = _source(tmp_path / "odoo16", ", lock=True", "")
    new = _source(tmp_path / "odoo17", "", "")
    for root, name in ((old, "price_compute"), (new, "_price_compute")):
        (root / "addons" / "account" / "models" / "product.py").write_text(
            "class P(models.Model):\n    _name = 'product.product'\n\n"
            f"    def {name}(self, price_type, uom=None):\n        return {{}}\n"
        )
    module = tmp_path / "pricing"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "p.py").write_text(
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def price_compute(self, price_type, uom=None):\n"
        "        prices = super().price_compute(price_type, uom=uom)\n"
        "        return {k: values.get(k) for k in prices} or self.price_compute('list_price')\n"
    )
    [migrated] = migrate([module], "17.0", write=True, odoo_sources={16: old, 17: new}).modules
    assert (module / "p.py").read_text() == (
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def _price_compute(self, price_type, uom=None):\n"
        "        prices = super()._price_compute(price_type, uom=uom)\n"
        "        return {k: values.get(k) for k in prices} or self._price_compute('list_price')\n"
    )
    assert migrated.steps[0].rules_applied["renamed-core-method"] == 1
