"""A data record's field that is no field of its model but that the model's create/write take
(16.0/17.0 ir.property's ``value``: OCA's base_report_to_printer 16.0 sets it and installs) is no
record-field-unknown there; a misspelled one still is; 18.0 has no ir.property at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.conftest import run_cli

DATA = """<?xml version="1.0" encoding="utf-8"?>
<odoo>
  <record id="prop" model="ir.property">
    <field name="name">probe_prop</field>
    <field name="value" eval="'res.partner,1'"/>
    <field name="valuee" eval="'res.partner,1'"/>
  </record>
</odoo>
"""


def _module(root: Path, version: str) -> Path:
    folder = root / "probe"
    (folder / "data").mkdir(parents=True)
    manifest = {"name": "probe", "version": version, "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["data/data.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "data" / "data.xml").write_text(DATA, encoding="utf-8")
    return root


@pytest.mark.parametrize("series", ["16.0", "17.0"])
def test_ir_property_value_is_taken_by_create(tmp_path: Path, series: str) -> None:
    addons = _module(tmp_path / "addons", f"{series}.1.0.0")
    args = ["check", "--addons-path", str(addons), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--odoo-series", series], tmp_path, tmp_path / "c", {})
    unknown = [
        (f["line"], f["severity"])
        for f in json.loads(result.stdout)["findings"]
        if f["code"] == "record-field-unknown"
    ]
    assert unknown == [(6, "error")]  # valuee, not value
