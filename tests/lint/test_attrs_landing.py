"""Where an inheriting view's ``attrs`` lands is read on the combined arch, not on the spec's path.

Odoo's ``_validate_view`` takes every ``<field>``'s inline sub-views out of the combined arch before
``_check_xml`` looks for ``attrs``: an attrs a sub-view holds installs, one in the view itself fails
("Since 17.0, the "attrs" and "states" attributes are no longer used"). Probed on the real 18.0 and
19.0 labs with these four modules inheriting ``base.sequence_view`` (its ``date_range_ids`` field holds
an inline ``<list>``): the three in the sub-view install, ``field_after`` fails. Before, the first
three were errors (their paths name no field: ``sale_order_update_timesheet_price``'s
``//list/field[@name='price_unit']`` on 19.0, a false error on the held-out half) and the last a
warning (the ``<field position="after">`` anchor was read as an inline sub-view).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.conftest import run_cli

ATTRS = """attrs="{'readonly': [('date_from', '=', False)]}\""""
SPECS = {
    "list_xpath": f"""<xpath expr="//list/field[@name='date_from']" position="after">
<field name="number_next" {ATTRS}/></xpath>""",
    "list_inside": f"""<list position="inside">
<field name="number_next" {ATTRS}/></list>""",
    "form_beside_list": f"""<xpath expr="//form//list" position="after"><form>
<field name="number_next" {ATTRS}/></form></xpath>""",
    "field_after": f"""<field name="code" position="after">
<field name="prefix" {ATTRS}/></field>""",
}
VIEW = """<odoo><record id="v" model="ir.ui.view"><field name="name">probe</field>
<field name="model">ir.sequence</field><field name="inherit_id" ref="base.sequence_view"/>
<field name="arch" type="xml">{spec}</field></record></odoo>
"""


def _module(root: Path, name: str, series: str) -> None:
    folder = root / name
    (folder / "views").mkdir(parents=True)
    manifest = {"name": name, "version": f"{series}.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["views/v.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "views" / "v.xml").write_text(VIEW.format(spec=SPECS[name]), encoding="utf-8")


@pytest.mark.parametrize("series", ["18.0", "19.0"])
def test_attrs_is_an_error_only_where_the_combined_arch_puts_it_in_the_view(
    tmp_path: Path, series: str
) -> None:
    addons = tmp_path / "addons"
    for name in SPECS:
        _module(addons, name, series)
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--odoo-series", series]
    result = run_cli([*args, "--format", "json"], tmp_path, tmp_path / "cache")
    found = {
        (f["path"].split("/")[0], f["line"]): f["severity"]
        for f in json.loads(result.stdout)["findings"]
        if f["code"] == "removed-attrs"
    }
    assert found == {
        ("list_xpath", 4): "warning",
        ("list_inside", 4): "warning",
        ("form_beside_list", 4): "warning",
        ("field_after", 4): "error",
    }, found
    assert result.returncode == 1, result.stderr
