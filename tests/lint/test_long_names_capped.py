"""A name a module's file gives is shown capped in a finding: an inheriting view anchored on a field
named with 5 MB of letters was reported with the whole name in the message (5 MB per finding, in every
report format). Each word of a message or hint over ``MAX_WORD`` characters ends in an ellipsis
(``odoo_tools.findings.capped``, the one place every finding passes)."""

from __future__ import annotations

import json
from pathlib import Path

from odoo_tools.findings import ELLIPSIS, MAX_TEXT, MAX_WORD, Finding
from tests.lint.conftest import run_cli

NAME = "x" * (5 << 20)
VIEW = f"""<odoo><record id="v" model="ir.ui.view"><field name="name">big</field>
<field name="model">res.partner</field><field name="inherit_id" ref="base.view_partner_form"/>
<field name="arch" type="xml"><xpath expr="//field[@name='{NAME}']" position="after">
<field name="ref"/></xpath></field></record></odoo>
"""


def test_a_five_megabyte_name_in_an_xpath_is_shown_capped(tmp_path: Path) -> None:
    module = tmp_path / "addons" / "big"
    (module / "views").mkdir(parents=True)
    manifest = {"name": "big", "version": "18.0.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    (module / "__manifest__.py").write_text(repr({**manifest, "data": ["views/v.xml"]}), encoding="utf-8")
    (module / "__init__.py").write_text("", encoding="utf-8")
    (module / "views" / "v.xml").write_text(VIEW, encoding="utf-8")
    args = ["check", "--addons-path", str(tmp_path / "addons"), "--checks", "static", "--odoo-series", "18.0"]
    result = run_cli([*args, "--format", "json"], tmp_path, tmp_path / "cache")
    findings = json.loads(result.stdout)["findings"]
    named = [f for f in findings if "x" * (MAX_WORD // 2) in f["message"]]
    assert named and result.returncode == 1, (findings, result.stderr[-2000:])
    for finding in named:
        assert len(finding["message"]) <= MAX_TEXT + 1 and "x" + ELLIPSIS in finding["message"]
    text = run_cli([*args, "--format", "text"], tmp_path, tmp_path / "cache")
    assert len(text.stdout) < 20_000 and ELLIPSIS in text.stdout, len(text.stdout)


def test_capping_keeps_short_words_and_bounds_the_whole() -> None:
    kept = Finding(source="static", code="c", message="Field 'partner_id' does not exist", hint="Fix it.")
    assert kept.message == "Field 'partner_id' does not exist"
    spaced = Finding(source="static", code="c", message="ab " * 10_000)
    assert len(spaced.message) == MAX_TEXT + 1 and spaced.message.endswith(ELLIPSIS)
