"""An ``attrs`` that an inheriting view's ``<xpath>`` puts below a ``<field>`` lands in that field's
inline sub-view, which Odoo 18 does not validate: installed on a real Odoo 18 (a probe inheriting
base.view_partner_form at ``//field[@name='child_ids']/form//field[@name='name']``), while the same
attrs at ``//field[@name='vat']`` fails ("Since 17.0, the "attrs" and "states" attributes are no
longer used"). Released OCA 18.0 modules (budget_activity) do the first; it was a false error."""

from __future__ import annotations

import json
from pathlib import Path

from tests.lint.conftest import run_cli

VIEW = """<odoo><record id="v" model="ir.ui.view"><field name="name">probe</field>
<field name="model">res.partner</field><field name="inherit_id" ref="base.view_partner_form"/>
<field name="arch" type="xml"><xpath expr="{expr}" position="after">
<field name="ref" attrs="{{'required': [('parent.active', '=', False)]}}"/>
</xpath></field></record></odoo>
"""


def _module(root: Path, name: str, expr: str) -> None:
    folder = root / name
    (folder / "views").mkdir(parents=True)
    manifest = {"name": name, "version": "18.0.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["views/v.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "views" / "v.xml").write_text(VIEW.format(expr=expr), encoding="utf-8")


def test_attrs_put_in_an_inline_sub_view_by_an_xpath_is_a_warning(tmp_path: Path) -> None:
    addons = tmp_path / "addons"
    _module(addons, "in_sub_view", "//field[@name='child_ids']/form//field[@name='name']")
    _module(addons, "in_form", "//field[@name='vat']")
    _module(addons, "back_up", "//field[@name='child_ids']/..")
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--odoo-series", "18.0"]
    result = run_cli([*args, "--format", "json"], tmp_path, tmp_path / "cache")
    found = {
        f["path"].split("/")[0]: f["severity"]
        for f in json.loads(result.stdout)["findings"]
        if f["code"] == "removed-attrs"
    }
    assert found == {"in_sub_view": "warning", "in_form": "error", "back_up": "error"}, found
