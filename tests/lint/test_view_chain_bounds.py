"""A repository's inheriting views are looked up within bounds (issue 35, attack 9 on this round's
view-anchor-missing): each spec scans an arch the specs before it grew, so a view of 8,000 specs cost
10 s and one of 20,000 over two minutes, past a SIGTERM. A view of more specs than Odoo's largest by
far, or a module past the check's budget, is one warning saying it was not looked up, at once."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.lint.conftest import run_cli

SPEC = '<xpath expr="//field[@name=\'name\']" position="after"><field name="ref"/></xpath>'
MISSING = '<field name="create_date" position="after"/>'  # a field of res.partner its form lacks


def _module(root: Path, views: list[int]) -> Path:
    """A module of one inheriting view of ``base.view_partner_form`` per count, that many specs
    each, then a spec that finds nothing."""
    folder = root / "probe"
    (folder / "views").mkdir(parents=True)
    manifest = {"name": "probe", "version": "18.0.1.0.0", "license": "LGPL-3", "depends": ["base"]}
    manifest["data"] = ["views/views.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    records = [
        f'<record id="v{n}" model="ir.ui.view"><field name="name">v{n}</field>'
        '<field name="model">res.partner</field><field name="inherit_id" ref="base.view_partner_form"/>'
        f'<field name="arch" type="xml"><data>{SPEC * count}{MISSING}</data></field></record>'
        for n, count in enumerate(views)
    ]
    (folder / "views" / "views.xml").write_text("<odoo>" + "\n".join(records) + "</odoo>", encoding="utf-8")
    return root


def _anchor_findings(root: Path, tmp_path: Path) -> tuple[list[dict[str, str]], float]:
    args = ["check", "--addons-path", str(root), "--checks", "static", "--odoo-series", "18.0"]
    args += ["--format", "json"]
    start = time.monotonic()
    result = run_cli(args, tmp_path, tmp_path / "cache")
    spent = time.monotonic() - start
    findings = json.loads(result.stdout)["findings"]
    return [f for f in findings if "anchor" in f["code"]], spent


def test_a_view_of_few_specs_is_still_looked_up(tmp_path: Path) -> None:
    found, _ = _anchor_findings(_module(tmp_path / "addons", [50]), tmp_path)
    assert [(f["code"], f["severity"]) for f in found] == [("view-anchor-missing", "error")]


def test_a_view_of_thousands_of_specs_is_one_warning_at_once(tmp_path: Path) -> None:
    found, spent = _anchor_findings(_module(tmp_path / "addons", [8000]), tmp_path)
    assert [(f["code"], f["severity"]) for f in found] == [("unchecked-view-anchor", "warning")]
    assert "8001 specs" in found[0]["message"] and found[0]["line"] is not None
    assert spent < 8, spent  # 10 s of lookups alone before the bound (with the process start: 12 s)


def test_a_module_past_the_checks_budget_stops_with_one_warning(tmp_path: Path) -> None:
    # 15 views of 900 specs: each under the view's bound, 13,500 lookups and more over all walks
    found, _ = _anchor_findings(_module(tmp_path / "addons", [900] * 15), tmp_path)
    unchecked = [f for f in found if f["code"] == "unchecked-view-anchor"]
    assert len(unchecked) == 1 and "for one module's views" in unchecked[0]["message"]
    assert {f["code"] for f in found} <= {"view-anchor-missing", "unchecked-view-anchor"}
