"""Core methods whose parameters a step renamed as well as removed and added (17.0's
``_name_search(name, domain, operator, limit, order)``, 16.0's ``(name, args, operator, limit,
name_get_uid)``): overrides and functions patched in for them take the new signature."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.signature_changes import changed_parameters, renamed_parameters
from odoo_tools.migrate.passes.signatures import Signature
from odoo_tools.series import Series

OLD = "    def _name_search(self, name='', args=None, operator='ilike', limit=100, name_get_uid=None):\n"
NEW = "    def _name_search(self, name, domain=None, operator='ilike', limit=None, order=None):\n"
MODULE = '''from odoo import api, models


class Tag(models.Model):
    _name = "x.tag"

    def _name_search(self, name="", args=None, operator="ilike", limit=100, name_get_uid=None):
        args = list(args or []) + [("active", "=", True)]
        return super()._name_search(
            name, args=args, operator=operator, limit=limit, name_get_uid=name_get_uid
        )


class Group(models.Model):
    _name = "x.group"

    def _name_search(self, name, args=None, operator="ilike", limit=100, name_get_uid=None):
        domain = [("code", "=ilike", name)]
        return self._search(domain + (args or []), limit=limit, access_rights_uid=name_get_uid)


def patch_name_search():
    @api.model
    def _name_search(self, name="", args=None, operator="ilike", limit=100, name_get_uid=None):
        """Codes first."""
        res = _name_search.origin(self, name, args, operator, limit=limit, name_get_uid=name_get_uid)
        return res

    return _name_search


def _name_search(name, args=None, operator="ilike", limit=100, name_get_uid=None):
    return args


class Base(models.AbstractModel):
    _inherit = "base"

    def _register_hook(self):
        for model in self.env.values():
            model._patch_method("_name_search", patch_name_search())
        return super()._register_hook()
'''


def _source(root: Path, method: str) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "models.py").write_text(f"class BaseModel:\n{method}        pass\n")
    return root


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_overrides_and_patched_functions_take_the_new_signature(tmp_path: Path) -> None:
    old, new = _source(tmp_path / "odoo16", OLD), _source(tmp_path / "odoo17", NEW)
    module = tmp_path / "searching"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 's', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    (module / "models.py").write_text(MODULE)
    [migrated] = migrate(
        [module], "17.0", write=True, odoo_sources={Series(16): old, Series(17): new}
    ).modules
    text = (module / "models.py").read_text()
    # the body renamed along with the parameter; name_get_uid gone, order passed on
    assert (
        '    def _name_search(self, name="", domain=None, operator="ilike", limit=100, order=None):\n'
        '        domain = list(domain or []) + [("active", "=", True)]\n'
        "        return super()._name_search(\n"
        "            name, domain=domain, operator=operator, limit=limit, order=order\n"
        "        )\n"
    ) in text
    # a body with a domain of its own keeps reading args, bound to the parameter first
    assert (
        '    def _name_search(self, name, domain=None, operator="ilike", limit=100, order=None):\n'
        "        args = domain\n"
        '        domain = [("code", "=ilike", name)]\n'
        "        return self._search(domain + (args or []), limit=limit, access_rights_uid=None)\n"
    ) in text
    # the function patched in for the method: .origin(self, ...) is its super() call
    assert (
        '    def _name_search(self, name="", domain=None, operator="ilike", limit=100, order=None):\n'
        '        """Codes first."""\n'
        "        res = _name_search.origin(self, name, domain, operator, limit=limit, order=order)\n"
    ) in text
    # a module-level function of that name that nothing patches in stays as written
    assert 'def _name_search(name, args=None, operator="ilike", limit=100, name_get_uid=None):\n' in text
    applied = migrated.steps[0].rules_applied
    assert applied["renamed-method-parameter"] == 3
    assert applied["removed-method-parameter"] == 3
    assert applied["added-method-parameter"] == 3
    lines = sorted(f.line or 0 for f in migrated.findings if f.code == "renamed-method-parameter")
    # lines of the file as written: the 17.0 step's _patch_method function (11 lines) comes first
    assert lines == [7 + 11, 17 + 11, 24 + 11]


def test_renames_come_from_the_registry_and_the_rest_must_line_up() -> None:
    assert renamed_parameters("17.0") == {"_name_search": {"args": "domain"}}
    assert renamed_parameters("18.0") == {}
    old = Signature(("name", "args", "operator", "limit", "name_get_uid"))
    new = Signature(("name", "domain", "operator", "limit", "order"), (("order", "None"),))
    change = changed_parameters(old, new, {"args": "domain"})
    assert change is not None
    assert (change.renamed, change.gone, change.added) == (
        {"args": "domain"},
        ("name_get_uid",),
        {"order": "None"},
    )
    assert changed_parameters(old, new, {}) is None  # a rename is never guessed from the signatures
    moved = Signature(("name", "operator", "domain", "limit", "order"), (("order", "None"),))
    assert changed_parameters(old, moved, {"args": "domain"}) is None
    computed = Signature(("name", "domain", "operator", "limit", "order"), (("order", "_default()"),))
    assert changed_parameters(old, computed, {"args": "domain"}) is None
