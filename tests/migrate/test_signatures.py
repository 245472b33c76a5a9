"""Overrides of a core method whose parameter the step removed, read from the two sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.signature_changes import added_parameters, removed_parameters
from odoo_tools.migrate.passes.signatures import Signature
from odoo_tools.series import Series

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
    [migrated] = migrate(
        [module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new}
    ).modules
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
    [said] = [f.message for f in migrated.findings if f.line == 9 and f.code == "removed-method-parameter"]
    assert "removed from this override and its super() call;" in said


def test_an_override_without_super_is_not_said_to_pass_it_on(tmp_path: Path) -> None:
    """An override that does not call super(): its message names no super() call it lacks."""
    old = _source(tmp_path / "odoo16", "", ", flag=False")
    new = _source(tmp_path / "odoo17", "", "")
    module = tmp_path / "alone"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['account']}\n")
    (module / "move.py").write_text(
        'class AccountMove(models.Model):\n    _inherit = "account.move"\n\n'
        "    def copy(self, default=None, flag=False):\n        return self.browse()\n"
    )
    [migrated] = migrate(
        [module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new}
    ).modules
    [said] = [f.message for f in migrated.findings if f.code == "removed-method-parameter"]
    assert "removed from this override;" in said and "super()" not in said
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['account']}\n")
    [added] = migrate(
        [module], "17.0", odoo_sources={Series(16): new, Series(17): old}
    ).modules  # copy() gains flag
    [said] = [f.message for f in added.findings if f.code == "added-method-parameter"]
    assert said.endswith("(flag=False).") and "super()" not in said


def test_without_the_old_source_the_two_packs_say_it(tmp_path: Path) -> None:
    """One source alone is never paired with the other series' pack: the bundled 16.0 and 17.0
    packs stand in for both, and the real 17.0 registry's _get_last_sequence has no ``lock``."""
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
    migrate([module], "17.0", write=True, odoo_sources={Series(17): new})
    assert (module / "move.py").read_text() == text.replace(", lock=True)", ")").replace(", lock)", ")")


def test_a_renamed_parameter_is_not_removed() -> None:
    """18.0 -> 19.0 renamed write(self, values) to write(self, vals) in places: the override's
    argument still arrives by position, so nothing is dropped."""
    old = Signature(("values",))
    assert removed_parameters(old, Signature(("vals",))) == ()
    assert removed_parameters(Signature(("a", "b")), Signature(("a", "c"), (("c", "None"),))) == ()
    assert removed_parameters(Signature(("a", "lock")), Signature(("a",))) == ("lock",)
    assert removed_parameters(Signature(("a", "lock")), Signature(("a",), open_ended=True)) == ()


def _pricing(tmp_path: Path) -> tuple[Path, Path, Path]:
    """16.0's and 17.0's sources, product price_compute() renamed _price_compute() (same
    parameters), and an empty 16.0 module depending on them."""
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
    return old, new, module


def test_a_renamed_core_method_renames_the_override(tmp_path: Path) -> None:
    """16.0's product price_compute() is _price_compute() in 17.0, same parameters (OCA
    product_supplierinfo_for_customer: 'super' object has no attribute 'price_compute')."""
    old, new, module = _pricing(tmp_path)
    (module / "p.py").write_text(
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def price_compute(self, price_type, uom=None):\n"
        "        prices = super().price_compute(price_type, uom=uom)\n"
        "        return {k: values.get(k) for k in prices} or self.price_compute('list_price')\n"
    )
    [migrated] = migrate(
        [module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new}
    ).modules
    assert (module / "p.py").read_text() == (
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def _price_compute(self, price_type, uom=None):\n"
        "        prices = super()._price_compute(price_type, uom=uom)\n"
        "        return {k: values.get(k) for k in prices} or self._price_compute('list_price')\n"
    )
    assert migrated.steps[0].rules_applied["renamed-core-method"] == 1


def test_an_override_of_a_core_method_gone_in_the_target_is_a_finding(tmp_path: Path) -> None:
    """17.0's mail.activity.mixin _read_progress_bar() is gone in 18.0 (OCA mail_activity_done:
    'super' object has no attribute '_read_progress_bar'): said at the def, nothing rewritten."""
    old, new, module = _pricing(tmp_path)
    code = (
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def _compute_domain(self, x):\n        return super()._compute_domain(x)\n\n"
        "    def price_compute(self, price_type, uom=None):\n"
        "        return super().price_compute(price_type)\n\n"
        "    def copy(self, default=None):\n        return super().copy(default)\n\n"
        "    def _never_core(self):\n        return super()._never_core()\n\n\n"
        'class Q(models.Model):\n    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False, with_prefix=None, lock=True):\n"
        "        return super()._get_last_sequence(relaxed, with_prefix, lock)\n\n"
        "    def _get_last_sequence_extra(self):\n        return self._get_last_sequence()\n"
    )
    (module / "p.py").write_text(code)
    for root in (old, new):  # account.move's own method, gone in 17.0 (no other under a near name)
        (root / "addons" / "account" / "models" / "gone.py").write_text(
            "class G(models.Model):\n    _inherit = 'product.product'\n\n"
            + ("    def _compute_domain(self, x):\n        return x\n" if root == old else "")
        )
    [migrated] = migrate([module], "17.0", odoo_sources={Series(16): old, Series(17): new}).modules
    gone = [(f.line, f.severity, f.message) for f in migrated.findings if f.code == "removed-core-method"]
    assert gone == [
        (
            4,
            "warning",
            "product.product._compute_domain() is gone from core in 17.0: Odoo no longer calls this "
            "override, and its super()._compute_domain() raises AttributeError when it runs.",
        )
    ]  # price_compute was renamed, copy is BaseModel's, _get_last_sequence lost a parameter only
    assert migrated.steps[0].rules_applied["renamed-core-method"] == 1
    [again] = migrate([module], "17.0").modules  # without the sources nothing is said
    assert not [f for f in again.findings if f.code == "removed-core-method"]


def test_a_parameter_the_core_method_gained_joins_the_override(tmp_path: Path) -> None:
    """19.0 calls _notify_get_reply_to(default, author_id=...): an 18.0 override without
    author_id fails with "unexpected keyword argument" (helpdesk_mgmt's tests on 19.0)."""
    old = _source(tmp_path / "odoo18", "", ", flag=False")
    new = _source(tmp_path / "odoo19", ", lock=True", ", flag=False, *, strict=None")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "move.py").write_text(
        "class AccountMove(models.Model):\n"
        '    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False, with_prefix=None):\n"
        "        other = self.partner_id._get_last_sequence(relaxed)\n"
        "        return super()._get_last_sequence(relaxed, with_prefix=with_prefix) or other\n\n"
        "    def copy(\n        self,\n        default=None,\n        flag=False,\n    ):\n"
        "        return super().copy(\n            default,\n            flag,\n        )\n\n"
        "    def _get_last_sequence_short(self, relaxed=False):\n"
        "        return super()._get_last_sequence(relaxed)\n"
    )
    text = (module / "move.py").read_text()
    [migrated] = migrate(
        [module], "19.0", write=True, odoo_sources={Series(18): old, Series(19): new}
    ).modules
    assert (module / "move.py").read_text() == text.replace(
        "with_prefix=None):", "with_prefix=None, lock=True):"
    ).replace("with_prefix=with_prefix) or", "with_prefix=with_prefix, lock=lock) or").replace(
        "        flag=False,\n    ):", "        flag=False,\n        strict=None,\n    ):"
    ).replace("            flag,\n        )", "            flag,\n            strict=strict,\n        )")
    assert migrated.steps[0].rules_applied["added-method-parameter"] == 2
    lines = sorted(f.line or 0 for f in migrated.findings if f.code == "added-method-parameter")
    assert lines == [4, 8]


def test_an_added_parameter_after_a_lone_last_line_goes_on_its_own_line(tmp_path: Path) -> None:
    """OCA account_payment_order's ``super()._prepare_move_line_default_vals(`` with its one
    argument on its own line and no trailing comma (16.0 -> 17.0 adds force_balance): the new
    argument came out as ``write_off_line_vals, `` then ``force_balance=force_balance)`` glued
    to the closing parenthesis, at its indentation."""
    old = _source(tmp_path / "odoo18", "", "")
    new = _source(tmp_path / "odoo19", "", ", flag=False")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "move.py").write_text(
        'class M(models.Model):\n    _inherit = "account.move"\n\n'
        "    def copy(\n        self,\n        default=None\n    ):\n"
        "        return super().copy(\n            default=default\n        )\n"
    )
    migrate([module], "19.0", write=True, odoo_sources={Series(18): old, Series(19): new})
    assert (module / "move.py").read_text() == (
        'class M(models.Model):\n    _inherit = "account.move"\n\n'
        "    def copy(\n        self,\n        default=None,\n        flag=False\n    ):\n"
        "        return super().copy(\n            default=default,\n            flag=flag\n        )\n"
    )


def test_an_open_ended_or_partial_override_gains_nothing(tmp_path: Path) -> None:
    old = _source(tmp_path / "odoo18", "", "")
    new = _source(tmp_path / "odoo19", ", lock=True", ", flag=False")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    text = (
        'class M(models.Model):\n    _inherit = "account.move"\n\n'
        "    def _get_last_sequence(self, relaxed=False):\n"
        "        return super()._get_last_sequence(relaxed)\n\n"
        "    def copy(self, default=None, **kwargs):\n"
        "        return super().copy(default, **kwargs)\n"
    )
    (module / "move.py").write_text(text)
    migrate([module], "19.0", write=True, odoo_sources={Series(18): old, Series(19): new})
    assert (module / "move.py").read_text() == text


def test_a_parameter_is_not_added_over_a_name_the_override_uses(tmp_path: Path) -> None:
    """19.0's stock.quant._apply_inventory(date=None): an override that reads the module's own
    ``date`` (``from datetime import date``) or sets a local one would get it shadowed by the new
    parameter, or pass its own value to super(). It is left as written, with a warning."""
    old = _source(tmp_path / "odoo18", "", "")
    new = _source(tmp_path / "odoo19", "", ", date=None")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    text = (
        "from datetime import date\n\n\n"
        'class M(models.Model):\n    _inherit = "account.move"\n\n'
        "    def copy(self, default=None):\n"
        "        default = dict(default or {}, ref=str(date.today()))\n"
        "        return super().copy(default)\n"
    )
    (module / "move.py").write_text(text)
    [migrated] = migrate(
        [module], "19.0", write=True, odoo_sources={Series(18): old, Series(19): new}
    ).modules
    assert (module / "move.py").read_text() == text
    assert "added-method-parameter" not in migrated.steps[0].rules_applied
    [finding] = [f for f in migrated.findings if f.code == "added-method-parameter"]
    assert (finding.line, finding.severity) == (7, "warning")
    assert "date" in finding.message


def test_a_file_no_rule_changes_is_left_byte_for_byte(tmp_path: Path) -> None:
    """libcst gives back a file ending in a lone carriage return without it (18.0 custom
    brodher_product_serial's purchase_order.py): a file whose overrides need nothing is not
    rewritten, so it keeps its last byte and stays out of the diff."""
    old = _source(tmp_path / "odoo18", "", ", flag=False")
    new = _source(tmp_path / "odoo19", "", ", flag=False")
    module = tmp_path / "naming"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'n', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    data = (
        b'class M(models.Model):\r\n    _inherit = "account.move"\r\n\r\n'
        b"    def copy(self, default=None, flag=False):\r\n"
        b"        self.env['res.country'].create({'name': 'x'})\r\n"
        b"        return super().copy(default, flag)\r"
    )
    (module / "move.py").write_bytes(data)
    [migrated] = migrate([module], "19.0", odoo_sources={Series(18): old, Series(19): new}).modules
    assert "move.py" not in migrated.changed
    assert migrated.diff.count("+++") == 1  # the manifest's version only


def test_added_parameters_need_every_old_one_kept_and_literal_defaults() -> None:
    old = Signature(("default",), (("default", "None"),))
    new = Signature(("default", "author_id"), (("default", "None"), ("author_id", "False")))
    assert added_parameters(old, new) == {"author_id": "False"}
    assert added_parameters(old, Signature(("default", "author_id"), (("default", "None"),))) == {}
    computed = Signature(("default", "at"), (("default", "None"), ("at", "fields.Date.today()")))
    assert added_parameters(old, computed) == {}
    assert added_parameters(old, Signature(("other", "author_id"), (("author_id", "1"),))) == {}
    assert added_parameters(Signature(("default",), open_ended=True), new) == {}


RULE_SOURCE = """class IrRule(models.Model):
    _name = "ir.rule"

    def _compute_domain(self, model_name, mode="read"){returns}:
        return []
"""


def test_an_override_of_a_method_now_returning_a_domain_returns_one(tmp_path: Path) -> None:
    """19.0's ir.rule._compute_domain() -> Domain, whose caller calls .optimize_full(): an 18.0
    override returning expression.AND([...]) failed "'list' object has no attribute
    'optimize_full'" (analytic_hr_department_restriction's tests)."""
    old = _source(tmp_path / "odoo18", "", "")
    new = _source(tmp_path / "odoo19", "", "")
    for root, returns in ((old, ""), (new, " -> Domain")):
        (root / "addons" / "account" / "models" / "rule.py").write_text(RULE_SOURCE.format(returns=returns))
    module = tmp_path / "ruling"
    module.mkdir()
    (module / "__manifest__.py").write_text(
        "{'name': 'r', 'version': '18.0.1.0.0', 'depends': ['account']}\n"
    )
    (module / "rule.py").write_text(
        "from odoo import models\n"
        "from odoo.osv import expression\n\n\n"
        "class IrRule(models.Model):\n"
        '    _inherit = "ir.rule"\n\n'
        '    def _compute_domain(self, model_name, mode="read"):\n'
        "        res = super()._compute_domain(model_name, mode=mode)\n"
        "        if model_name != 'x':\n"
        "            return super()._compute_domain(model_name, mode=mode)\n"
        "        def inner():\n"
        "            return [('a', '=', 1)]\n"
        "        return expression.AND([inner(), res])\n"
    )
    [migrated] = migrate(
        [module], "19.0", write=True, odoo_sources={Series(18): old, Series(19): new}
    ).modules
    text = (module / "rule.py").read_text()
    assert text.startswith(
        "from odoo import models\nfrom odoo.osv import expression\nfrom odoo.fields import Domain\n"
    )
    assert "        return Domain(expression.AND([inner(), res]))\n" in text
    assert "            return [('a', '=', 1)]\n" in text  # a function inside the override is its own
    assert "            return super()._compute_domain(model_name, mode=mode)\n" in text
    assert migrated.steps[0].rules_applied["domain-return-value"] == 1
    assert [f.line for f in migrated.findings if f.code == "domain-return-value"] == [8]


def test_a_method_renamed_on_every_model_is_renamed_in_every_call(tmp_path: Path) -> None:
    """OCA product_supplierinfo_for_customer's tests call price_compute() on their products:
    "'product.product' object has no attribute 'price_compute'" on 17.0, where every model that
    had it has _price_compute. A module's own function of that name keeps its calls."""
    old = _source(tmp_path / "odoo16", "", "")
    new = _source(tmp_path / "odoo17", "", "")
    for root, name in ((old, "price_compute"), (new, "_price_compute")):
        (root / "addons" / "account" / "models" / "product.py").write_text(
            "class P(models.Model):\n    _name = 'product.product'\n\n"
            f"    def {name}(self, price_type, uom=None):\n        return {{}}\n\n"
            "class T(models.Model):\n    _name = 'product.template'\n\n"
            f"    def {name}(self, price_type, uom=None):\n        return {{}}\n"
        )
    module = tmp_path / "pricing"
    (module / "tests").mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    test = (
        "class T(TransactionCase):\n"
        "    def test_price(self):\n"
        "        res = self.product.with_context(partner_id=1).price_compute(\n"
        '            "partner", self.product.uom_id\n'
        "        )\n"
        "        return res, self.product.price_compute\n"
    )
    (module / "tests" / "test_price.py").write_text(test)
    [migrated] = migrate(
        [module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new}
    ).modules
    assert (module / "tests" / "test_price.py").read_text() == test.replace(
        ").price_compute(", ")._price_compute("
    )  # a call only: a bare attribute may be anything's
    found = [(f.code, f.line, f.severity) for f in migrated.findings if f.code == "renamed-core-method"]
    assert found == [("renamed-core-method", 3, "warning")]
    assert migrated.steps[0].rules_applied["renamed-core-method"] == 1

    (module / "tests" / "test_price.py").write_text(test)  # a dependency outside the core may define it
    (module / "__manifest__.py").write_text(
        "{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['pricing_x']}\n"
    )
    migrate([module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new})
    assert (module / "tests" / "test_price.py").read_text() == test

    own = "def price_compute(x):\n    return x\n\n\nprice_compute(1)\nhelper.price_compute(2)\n"
    (module / "tests" / "test_price.py").write_text(own)
    (module / "__manifest__.py").write_text(
        "{'name': 'p', 'version': '16.0.1.0.0', 'depends': ['account']}\n"
    )
    migrate([module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new})
    assert (module / "tests" / "test_price.py").read_text() == own


def test_a_renamed_core_method_renames_only_the_model_class_overriding_it(tmp_path: Path) -> None:
    """Another class of the same file with its own method of that name keeps it, and its
    self.price_compute() calls (found by running every rule over the corpora: the renames were
    made file-wide)."""
    old, new, module = _pricing(tmp_path)
    helper = (
        "class Helper:\n"
        "    def price_compute(self, price_type):\n"
        "        return self.price_compute(price_type)\n"
    )
    (module / "p.py").write_text(
        'class P(models.Model):\n    _inherit = "product.product"\n\n'
        "    def price_compute(self, price_type, uom=None):\n"
        "        return super().price_compute(price_type, uom=uom)\n\n\n" + helper
    )
    migrate([module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new})
    text = (module / "p.py").read_text()
    assert "    def _price_compute(self, price_type, uom=None):\n" in text
    assert "super()._price_compute(price_type, uom=uom)" in text
    assert text.endswith(helper)
