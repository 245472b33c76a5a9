"""A repository of mixed series (OCA's workflow: one module migrated at a time) is judged per
module by its own manifest, alike by the linters (pylint-odoo's manifest version) and the static
checks, and the report names the series of what it checked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.lint.conftest import run_cli

VIEW = """<?xml version="1.0" encoding="utf-8"?>
<odoo>
    <record id="view_partner_list" model="ir.ui.view">
        <field name="name">res.partner.list</field>
        <field name="model">res.partner</field>
        <field name="arch" type="xml">
            <tree>
                <field name="name"/>
            </tree>
        </field>
    </record>
</odoo>
"""


def _repository(root: Path) -> None:
    """Three 17.0 modules, each importing a name odoo.tools gives until 17.0."""
    for name in ("hr_one", "hr_two", "hr_study"):
        folder = root / name
        folder.mkdir(parents=True)
        manifest = {
            "name": name,
            "version": "17.0.1.0.0",
            "license": "LGPL-3",
            "author": "Odoo Community Association (OCA)",
            "depends": ["base"],
            "data": ["views.xml"],
        }
        (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
        (folder / "__init__.py").write_text("from odoo.tools import submap  # noqa: F401\n")
        (folder / "views.xml").write_text(VIEW)


def _check(root: Path, tmp_path: Path, *targets: str) -> dict[str, object]:
    args = ["check", *targets, "--addons-path", str(root), "--checks", "pylint,static", "--format", "json"]
    result = run_cli(args, tmp_path, tmp_path / "cache")
    assert result.returncode in (0, 1), result.stderr
    report: dict[str, object] = json.loads(result.stdout)
    return report


def _codes(report: dict[str, object], module: str) -> set[str]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return {f["code"] for f in findings if f["module"] == module}


def test_a_module_migrated_alone_is_checked_for_its_own_series(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _repository(root)
    migrate = ["migrate", str(root / "hr_study"), "--to", "18.0", "--write", "--no-diff"]
    migrated = run_cli(migrate, tmp_path, tmp_path / "cache")
    assert "hr_study: 17.0 -> 18.0 (written)" in migrated.stdout, migrated.stderr
    assert "18.0.1.0.0" in (root / "hr_study/__manifest__.py").read_text()

    alone = _check(root, tmp_path, str(root / "hr_study"))
    assert alone["series"] == "18.0"  # what was checked, not the repository's majority (17.0)
    study = _codes(alone, "hr_study")
    assert "C8106" not in study  # pylint-odoo's manifest-version-format was told 17.0
    assert "removed-python-name" in study  # odoo.tools.submap is gone in 18.0: an error there

    everything = _check(root, tmp_path)
    assert "C8106" not in _codes(everything, "hr_study") | _codes(everything, "hr_one")
    assert "removed-python-name" in _codes(everything, "hr_study")
    assert "removed-python-name" not in _codes(everything, "hr_one")  # 17.0 still gives it
