"""The python-call entries of the API change table are found as the table writes them: a dotted
name as an attribute chain's end or an import, a plain name as an attribute, ``name=`` as a keyword."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from tests.lint.test_static_checks import _module, _static

CODE = """from odoo import fields, models
from odoo.tools import ustr


class Partner(models.Model):
    _inherit = "res.partner"

    total = fields.Float(group_operator="sum")

    def work(self):
        self.env.registry.unaccent("x")
        self.user_has_groups("base.group_user")
        self.env.registry.clear_cache()
        return ustr(1)
"""


def _codes(found: list[Finding]) -> list[tuple[str, int | None, str]]:
    return sorted((f.code, f.line, f.severity) for f in found if f.source == "static")


def test_each_form_on_the_series_where_it_holds(tmp_path: Path) -> None:
    _module(tmp_path, "m", ["base"], [], {"__init__.py": "from . import partner\n", "partner.py": CODE})
    assert _codes(_static(tmp_path, "m", "17.0")) == []
    on_18 = [
        ("removed-user-has-groups", 12, "error"),
        ("removed-ustr", 2, "warning"),  # deprecated: 18.0 and 19.0 still give it
        ("renamed-group-operator", 8, "warning"),
    ]
    assert _codes(_static(tmp_path, "m", "18.0")) == on_18
    assert _codes(_static(tmp_path, "m", "20.0")) == sorted(
        [*on_18, ("removed-registry-clear-cache", 13, "error")]
    )
