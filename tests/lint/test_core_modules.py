"""Odoo's core modules are known without a source (bundled per-series lists), and a real source is
found where a developer has one: --odoo-path, odoo-bin's folder, odoo.conf, --odoo-python."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.series import core_graph
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import XML_HEAD, _module, _static

PICKING_REF = (
    XML_HEAD
    + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">stock.picking</field>\n'
    + '  <field name="inherit_id" ref="stock.view_picking_form"/>\n'
    + '  <field name="arch" type="xml"><form/></field>\n</record>\n</odoo>\n'
)


def test_bundled_lists_know_core_modules_per_series() -> None:
    core = core_graph("18.0")
    assert core.series == "18.0" and {"base", "sale", "stock", "mail", "web"} <= core.depends.keys()
    assert "sale_subscription" not in core.depends  # Enterprise modules are not core
    assert core.models["crm.team"] == "sales_team" and core.models["sale.order"] == "sale"
    assert core_graph("15.0").series == "16.0"  # a series without its own list takes the nearest one
    assert {s: core_graph(s).series for s in ("16.0", "17.0", "18.0", "19.0")} == {
        s: s for s in ("16.0", "17.0", "18.0", "19.0")
    }


# (series, a core module of that series only among its neighbours, a module it does not have)
PER_SERIES = [
    ("16.0", "website_sale_delivery", "account_audit_trail"),  # merged into website_sale in 17.0
    ("17.0", "account_audit_trail", "website_sale_delivery"),
    ("18.0", "hr_contract", "html_builder"),
    ("19.0", "html_builder", "hr_contract"),  # hr_contract merged into hr in 19.0
]


def _series_module(root: Path, series: str, depends: list[str], files: dict[str, str]) -> None:
    _module(root, "mine", depends, [], files)
    manifest = root / "mine" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.1.0.0", f"{series}.1.0.0"))


@pytest.mark.parametrize(("series", "own", "absent"), PER_SERIES)
def test_each_series_uses_its_own_core_list(tmp_path: Path, series: str, own: str, absent: str) -> None:
    """The module's series (its manifest version) picks the list: a core module of that series is
    a known dependency; one the series does not ship is reported (an info: another repository?)."""
    _series_module(tmp_path, series, ["base", own, absent], {})
    payload = _check(tmp_path, "--addons-path", str(tmp_path))
    missing = [f for f in payload["findings"] if f["code"] == "missing-dependency"]  # type: ignore[attr-defined]
    assert [(f["severity"], absent in f["message"], own in f["message"]) for f in missing] == [
        ("info", True, False)
    ]
    assert payload["series"] == series
    assert any(f"bundled Odoo {series} list" in n for n in payload["notes"])  # type: ignore[attr-defined]


def test_core_model_owner_follows_the_series(tmp_path: Path) -> None:
    """res.users.settings is mail's model in 16.0 and base's from 17.0 on."""
    model = 'from odoo import models\n\nclass S(models.Model):\n    _inherit = "res.users.settings"\n'
    files = {"__init__.py": "from . import m\n", "m.py": model}
    for series, flagged in (("16.0", True), ("17.0", False)):
        root = tmp_path / series
        _series_module(root, series, ["base"], files)
        codes = {f.code for f in _static(root, "mine")}
        assert ("model-not-in-dependencies" in codes) is flagged, series


def test_core_dependencies_are_not_findings_and_core_refs_are_checked(tmp_path: Path) -> None:
    _module(tmp_path, "shop", ["base", "sale"], ["views/v.xml"], {"views/v.xml": PICKING_REF})
    found = _static(tmp_path, "shop", "18.0")
    assert not [f for f in found if f.code == "missing-dependency"]
    refs = [f for f in found if f.code == "xml-id-not-in-dependencies"]
    assert [(f.line, f.severity) for f in refs] == [(5, "error")] and "'stock'" in refs[0].message
    _module(tmp_path, "ok", ["sale_stock"], ["views/v.xml"], {"views/v.xml": PICKING_REF})
    assert not [f for f in _static(tmp_path, "ok", "18.0") if f.code == "xml-id-not-in-dependencies"]


def test_unknown_dependency_is_still_reported(tmp_path: Path) -> None:
    _module(tmp_path, "shop", ["base", "not_a_core_module"], [], {})
    found = [f for f in _static(tmp_path, "shop", "18.0") if f.code == "missing-dependency"]
    assert [(f.severity, "not_a_core_module" in f.message) for f in found] == [("info", True)]


def _fake_odoo(root: Path) -> Path:
    """A tiny Odoo source: odoo/addons/base and addons/stock with one view."""
    _module(root / "odoo" / "addons", "base", [], [], {})
    (root / "odoo" / "release.py").write_text("version_info = (18, 0, 0, 'final', 0, '')\n", encoding="utf-8")
    view = XML_HEAD + '<odoo>\n<record id="view_picking_form" model="ir.ui.view"/>\n</odoo>\n'
    _module(root / "addons", "stock", ["base"], ["views/v.xml"], {"views/v.xml": view})
    return root


def _project(tmp_path: Path) -> Path:
    addons = tmp_path / "repo"
    broken = PICKING_REF.replace("stock.view_picking_form", "stock.view_picking_frm")
    _module(addons, "shop", ["stock"], ["views/v.xml"], {"views/v.xml": broken})
    return addons


def _check(tmp_path: Path, *extra: str) -> dict[str, object]:
    args = ["check", "--checks", "static", "--format", "json", *extra]
    result = run_cli(args, tmp_path, tmp_path / "cache")
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def _limited(payload: dict[str, object]) -> bool:
    return any("cross-module checks limited" in n for n in payload["notes"])  # type: ignore[attr-defined]


def _codes(payload: dict[str, object]) -> set[str]:
    return {str(f["code"]) for f in payload["findings"]}  # type: ignore[attr-defined]


def test_odoo_path_gives_the_static_checks_the_core_addons(tmp_path: Path) -> None:
    """20.0 has no series pack (no tree of it can be had): without a source the core's external IDs
    are unknown, so none is called missing."""
    addons, odoo = _project(tmp_path), _fake_odoo(tmp_path / "odoo_src")
    _edit_manifest(addons / "shop", "17.0.1.0.0", "20.0.1.0.0")
    without = _check(tmp_path, "--addons-path", str(addons))
    assert "xml-id-undefined" not in _codes(without)
    assert _limited(without)
    with_source = _check(tmp_path, "--addons-path", str(addons), "--odoo-path", str(odoo))
    assert "xml-id-undefined" in _codes(with_source) and with_source["modules"] == ["shop"]
    assert not _limited(with_source)


@pytest.mark.parametrize("series", ["17.0", "18.0", "19.0"])
def test_a_full_install_pack_knows_the_core_external_ids(tmp_path: Path, series: str) -> None:
    """The bundled 17.0, 18.0 and 19.0 packs were dumped from full installs: without any Odoo source,
    stock.view_picking_frm is missing and stock.view_picking_form is not."""
    addons = _project(tmp_path)
    _edit_manifest(addons / "shop", "17.0.1.0.0", f"{series}.1.0.0")
    broken = _check(tmp_path, "--addons-path", str(addons))
    assert broken["series"] == series and not _limited(broken)
    assert [f["line"] for f in broken["findings"] if f["code"] == "xml-id-undefined"] == [5]  # type: ignore[attr-defined]
    view = addons / "shop" / "views" / "v.xml"
    view.write_text(PICKING_REF, encoding="utf-8")
    assert "xml-id-undefined" not in _codes(_check(tmp_path, "--addons-path", str(addons)))


def test_with_an_odoo_source_a_dependency_of_another_repository_is_an_info(tmp_path: Path) -> None:
    """Seen on OCA/account-financial-tools 17.0 with --odoo-path: depends on date_range (OCA
    server-ux) and on Enterprise's accountant are outside the addons path, not broken code."""
    addons, odoo = tmp_path / "repo", _fake_odoo(tmp_path / "odoo_src")
    _module(addons, "budget", ["stock", "date_range", "accountant"], [], {})
    payload = _check(tmp_path, "--addons-path", str(addons), "--odoo-path", str(odoo))
    missing = [f for f in payload["findings"] if f["code"] == "missing-dependency"]  # type: ignore[attr-defined]
    assert [(f["severity"], "date_range, accountant" in f["message"]) for f in missing] == [("info", True)]
    assert "Odoo source" in missing[0]["message"]


def test_ids_named_by_update_xmlids_in_the_odoo_source_are_defined(tmp_path: Path) -> None:
    """Seen on OCA/stock-logistics-workflow and OCA/project 16.0 with --odoo-path: stock names
    stock.picking_type_internal and stock.stock_location_stock through ir.model.data's
    _update_xmlids in stock_data.xml, not with <record>; refs to them resolve."""
    odoo = _fake_odoo(tmp_path / "odoo_src")
    names = XML_HEAD + (
        '<odoo>\n<function model="ir.model.data" name="_update_xmlids">\n'
        "  <value model=\"base\" eval=\"[{\n    'xml_id': 'stock.picking_type_internal',\n"
        "    'record': obj().env.ref('stock.view_picking_form'),\n  }, {\n"
        "    &quot;xml_id&quot;: &quot;stock.stock_location_stock&quot;, 'noupdate': True}]\"/>\n"
        "</function>\n</odoo>\n"
    )
    (odoo / "addons" / "stock" / "data.xml").write_text(names, encoding="utf-8")
    _edit_manifest(odoo / "addons" / "stock", "'views/v.xml'", "'views/v.xml', 'data.xml'")
    refs = XML_HEAD + (
        '<odoo>\n<record id="r" model="stock.rule">\n'
        '  <field name="picking_type_id" ref="stock.picking_type_internal"/>\n'
        '  <field name="location_src_id" ref="stock.stock_location_stock"/>\n'
        '  <field name="location_dest_id" ref="stock.stock_location_nowhere"/>\n</record>\n</odoo>\n'
    )
    undefined = _found_with_source(tmp_path, odoo, ("auto", "data/rule.xml", refs), "xml-id-undefined")
    assert [(f["line"], "stock_location_nowhere" in f["message"]) for f in undefined] == [(6, True)]


def test_ref_to_a_module_auto_installed_with_the_dependencies_is_a_warning(tmp_path: Path) -> None:
    """Checked with a real Odoo 18 install of a custom module (depends base, web, mail) that
    inherits auth_signup.login: auth_signup auto-installs with mail, base_setup and web and
    loaded first, so the install worked. Undeclared still, but no install error."""
    odoo = _fake_odoo(tmp_path / "odoo_src")
    login = XML_HEAD + '<odoo>\n<template id="login"><div/></template>\n</odoo>\n'
    _module(odoo / "addons", "signup", ["stock"], ["views.xml"], {"views.xml": login})
    _edit_manifest(odoo / "addons" / "signup", "'depends'", "'auto_install': True, 'depends'")
    _module(odoo / "addons", "portal", ["base"], ["views.xml"], {"views.xml": login})
    inherit = XML_HEAD + (
        '<odoo>\n<template id="a" inherit_id="signup.login"><div/></template>\n'
        '<template id="b" inherit_id="portal.login"><div/></template>\n</odoo>\n'
    )
    found = _found_with_source(tmp_path, odoo, ("menu", "views.xml", inherit), "xml-id-not-in-dependencies")
    assert sorted((f["line"], f["severity"]) for f in found) == [(3, "warning"), (4, "error")]


def test_without_a_source_the_bundled_list_knows_auto_install_modules(tmp_path: Path) -> None:
    """The same case without any Odoo source: the bundled 18.0 list says auth_signup auto-installs
    with base_setup, mail and web; a ref to portal (not auto-installed) stays an error."""
    inherit = XML_HEAD + (
        '<odoo>\n<template id="a" inherit_id="auth_signup.login"><div/></template>\n'
        '<template id="b" inherit_id="portal.portal_layout"><div/></template>\n</odoo>\n'
    )
    _module(tmp_path, "menu", ["base", "web", "mail"], ["views.xml"], {"views.xml": inherit})
    found = [f for f in _static(tmp_path, "menu", "18.0") if f.code == "xml-id-not-in-dependencies"]
    assert sorted((f.line, f.severity) for f in found) == [(3, "warning"), (4, "error")]


def test_core_folders_in_odoo_conf_are_knowledge_not_checked(tmp_path: Path) -> None:
    addons, odoo = _project(tmp_path), _fake_odoo(tmp_path / "odoo_src")
    conf = tmp_path / "odoo.conf"
    conf.write_text(f"[options]\naddons_path = {odoo / 'odoo' / 'addons'},{odoo / 'addons'},{addons}\n")
    payload = _check(tmp_path, "--odoo-config", str(conf))
    assert payload["modules"] == ["shop"] and "xml-id-undefined" in _codes(payload)


def test_odoo_python_finds_a_pip_installed_odoo(tmp_path: Path) -> None:
    addons, odoo = _project(tmp_path), _fake_odoo(tmp_path / "odoo_src")
    python = tmp_path / "odoo-python"  # stand-in interpreter at the process boundary
    python.write_text(f"#!/bin/sh\necho {odoo / 'odoo' / 'addons'}\necho {odoo / 'addons'}\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    payload = _check(tmp_path, "--addons-path", str(addons), "--odoo-python", str(python))
    assert "xml-id-undefined" in _codes(payload) and not _limited(payload)


def test_a_module_of_another_series_than_the_project_uses_its_own_list(tmp_path: Path) -> None:
    """Most manifests say 18.0 (the project's series); a 16.0 module among them still sees 16.0's
    core modules, not 18.0's."""
    _series_module(tmp_path, "16.0", ["website_sale_delivery"], {})
    for name in ("a", "b"):
        _module(tmp_path, name, ["base"], [], {})
        manifest = tmp_path / name / "__manifest__.py"
        manifest.write_text(manifest.read_text().replace("17.0.1.0.0", "18.0.1.0.0"))
    project = load_project([tmp_path])
    assert project.series == "18.0"
    run = lint_addons_sync(
        project, [project.addon_set.get("mine")], ["static"], cache=LintCache(None), digests=FileDigests()
    )
    assert [f.message for f in run.findings if f.code == "missing-dependency"] == []


def _edit_manifest(module: Path, old: str, new: str) -> None:
    manifest = module / "__manifest__.py"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _found_with_source(tmp_path: Path, odoo: Path, module: tuple[str, str, str], code: str) -> list[Any]:
    """``code``'s findings for one module depending on stock (name, data file, its text), checked
    with ``--odoo-path odoo``."""
    addons = tmp_path / "repo"
    name, data, text = module
    _module(addons, name, ["stock"], [data], {data: text})
    payload = _check(tmp_path, "--addons-path", str(addons), "--odoo-path", str(odoo))
    return [f for f in payload["findings"] if f["code"] == code]  # type: ignore[attr-defined]
