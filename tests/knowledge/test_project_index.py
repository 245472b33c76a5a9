"""Cross-module answers over fixtures/index (a project plus a small Odoo source), pinned."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.index import ProjectIndex


def test_series_comes_from_the_odoo_source(index: ProjectIndex) -> None:
    assert (index.series.series, index.series.source) == ("17.0", "odoo-source")


def test_core_modules_are_read_only_knowledge(index: ProjectIndex) -> None:
    assert index.addons.get("base").readonly and index.addons.get("mail").readonly
    assert not index.addons.get("fleet_base").readonly
    names = [m.name for m in index.list_modules(installable=True)]
    assert names == [
        "bad_manifest",
        "base",
        "broken_files",
        "fleet_auto",
        "fleet_base",
        "fleet_extra",
        "mail",
        "web",
    ]


def test_list_modules_filters(index: ProjectIndex, tree: Path) -> None:
    assert [m.name for m in index.list_modules(depends_on="fleet_base")] == [
        "broken_files",
        "fleet_auto",
        "fleet_extra",
    ]
    assert [m.name for m in index.list_modules(root="project", depends_on="mail")] == [
        "broken_files",
        "fleet_auto",
        "fleet_base",
        "fleet_extra",
    ]
    assert [m.name for m in index.list_modules(root=str(tree / "odoo" / "addons"))] == ["mail", "web"]
    assert [m.name for m in index.list_modules(root="addons")] == ["base", "mail", "web"]  # both "addons"
    with pytest.raises(NotFound):
        index.list_modules(depends_on="nope")


def test_model_definition_extensions_and_field_origins(index: ProjectIndex) -> None:
    info = index.find_model("fleet.vehicle")
    assert [(p.module, p.path, p.line) for p in info.defined_in] == [
        ("fleet_base", "fleet_base/models/fleet_vehicle.py", 4)
    ]
    (extension,) = info.extended_by
    assert extension.module == "fleet_extra"
    assert extension.fields_added == ["insurance_ref", "state"]
    assert extension.methods_added == ["_check_plate", "action_open_vehicles"]
    assert (info.description, info.order, info.rec_name, info.kind) == (
        "Vehicle",
        "license_plate asc",
        "license_plate",
        "model",
    )
    assert info.inherits_from == ["mail.thread"]
    origins = {f.name: (f.module, f.via) for f in info.fields}
    assert origins == {
        "message_ids": ("mail", "mail.thread"),
        "message_follower_ids": ("mail", "mail.thread"),
        "license_plate": ("fleet_base", ""),
        "driver_id": ("fleet_base", ""),
        "driver_email": ("fleet_base", ""),
        "odometer": ("fleet_base", ""),
        "state": ("fleet_base", ""),
        "log_ids": ("fleet_base", ""),
        "insurance_ref": ("fleet_extra", ""),
    }
    state = next(f for f in info.fields if f.name == "state")
    assert state.selection == ["new", "active", "sold"] and state.overridden_in == ["fleet_extra"]


def test_model_views_actions_and_security(index: ProjectIndex) -> None:
    info = index.find_model("fleet.vehicle")
    assert [(v.xml_id, v.type) for v in info.views] == [
        ("fleet_base.fleet_vehicle_view_form", "form"),
        ("fleet_base.fleet_vehicle_view_list", "tree"),
        ("fleet_extra.fleet_vehicle_view_form_extra", "form"),  # type taken from the root view
        ("fleet_extra.fleet_vehicle_view_form_extra2", "form"),
    ]
    assert info.actions == ["fleet_base.fleet_vehicle_action (ir.actions.act_window, fleet_base)"]
    assert [(a.xml_id, a.group, a.perms) for a in info.access] == [
        ("fleet_base.access_fleet_vehicle_manager", "fleet_base.fleet_group_manager", "rwcu"),
        ("fleet_base.access_fleet_vehicle_user", "base.group_user", "r---"),
    ]
    assert info.record_rules == [
        "fleet_base.fleet_rule_own: [('driver_id', '=', user.partner_id.id)] "
        "groups=base.group_user (fleet_base)"
    ]
    methods = [(m.module, m.name, m.decorators) for m in info.methods if m.name == "_check_plate"]
    assert methods == [
        ("fleet_base", "_check_plate", ["api.constrains('license_plate')"]),
        ("fleet_extra", "_check_plate", ["api.constrains('license_plate')"]),
    ]


def test_transient_delegation_and_extension_of_core_model(index: ProjectIndex) -> None:
    assert index.find_model("fleet.vehicle.log").kind == "transient"
    users = index.find_model("res.users")
    assert users.delegates_to == {"res.partner": "partner_id"}
    partner = index.find_model("res.partner")
    assert [p.module for p in partner.defined_in] == ["base"]
    assert [(p.module, p.fields_added) for p in partner.extended_by] == [("fleet_extra", ["vehicle_ids"])]


def test_unknown_model_suggests_close_names(index: ProjectIndex) -> None:
    with pytest.raises(NotFound, match=r"fleet\.vehicles") as caught:
        index.find_model("fleet.vehicles")
    assert "Did you mean" in caught.value.hint
    with pytest.raises(InvalidInput):
        index.find_model("  ")


def test_find_field(index: ProjectIndex) -> None:
    state = index.find_field("state", "fleet.vehicle")
    assert [(m.module, m.line, m.selection) for m in state.matches] == [
        ("fleet_base", 15, ["new", "active"]),
        ("fleet_extra", 8, ["sold"]),
    ]
    inherited = index.find_field("message_ids", "fleet.vehicle")
    assert [(m.module, m.via, m.comodel) for m in inherited.matches] == [
        ("mail", "mail.thread", "mail.message")
    ]
    anywhere = index.find_field("partner_id")
    assert [(m.model, m.module, m.required) for m in anywhere.matches] == [("res.users", "base", True)]
    with pytest.raises(NotFound, match="No field 'licence_plate'") as caught:
        index.find_field("licence_plate", "fleet.vehicle")
    assert "license_plate" in caught.value.hint


def test_find_xml_id_and_view_inheritance_chain(index: ProjectIndex) -> None:
    info = index.find_xml_id("fleet_extra.fleet_vehicle_view_form_extra2")
    assert [v.xml_id for v in info.inheritance_chain] == [
        "fleet_base.fleet_vehicle_view_form",
        "fleet_extra.fleet_vehicle_view_form_extra",
        "fleet_extra.fleet_vehicle_view_form_extra2",
    ]
    root = index.find_xml_id("fleet_vehicle_view_form", module="fleet_base")
    assert {v.type for v in root.inherited_by} == {"form"}
    assert [v.xml_id for v in root.inherited_by] == [
        "fleet_extra.fleet_vehicle_view_form_extra",
        "fleet_extra.fleet_vehicle_view_form_extra2",
    ]
    (record,) = root.records
    assert (record.path, record.line, record.loaded) == ("fleet_base/views/fleet_vehicle_views.xml", 3, True)


def test_bare_xml_id_templates_and_unloaded_files(index: ProjectIndex) -> None:
    card = index.find_xml_id("vehicle_card")
    assert card.xml_id == "fleet_base.vehicle_card"
    assert [v.xml_id for v in card.inherited_by] == ["fleet_extra.vehicle_card_extra"]
    demo = index.find_xml_id("fleet_extra.demo_vehicle")
    assert [(r.model, r.loaded) for r in demo.records] == [("fleet.vehicle", False)]
    menu = index.find_xml_id("fleet_base.fleet_vehicle_menu")
    assert menu.records[0].tag == "menuitem"


def test_unknown_xml_id(index: ProjectIndex) -> None:
    with pytest.raises(NotFound, match="model_"):
        index.find_xml_id("fleet_base.model_fleet_vehicle")
    with pytest.raises(NotFound) as caught:
        index.find_xml_id("fleet_base.fleet_vehicle_view_from")
    assert "fleet_base.fleet_vehicle_view_form" in caught.value.hint


def test_references_to_a_model(index: ProjectIndex) -> None:
    refs = index.find_references("fleet.vehicle.log")
    assert refs.target_kind == "model"
    assert [(r.path, r.line) for r in refs.references] == [
        ("fleet_base/models/fleet_vehicle.py", 16),
        ("fleet_base/models/fleet_vehicle.py", 36),
        ("fleet_base/security/ir.model.access.csv", 4),
    ]


def test_references_to_a_field_stay_in_modules_that_see_the_model(index: ProjectIndex) -> None:
    refs = index.find_references("fleet.vehicle.driver_id")
    assert refs.target_kind == "field"
    assert [(r.path, r.line) for r in refs.references] == [
        ("fleet_base/models/fleet_vehicle.py", 12),
        ("fleet_base/models/fleet_vehicle.py", 13),
        ("fleet_base/models/fleet_vehicle.py", 26),
        ("fleet_base/views/fleet_vehicle_views.xml", 9),
        ("fleet_extra/models/res_partner.py", 7),
        ("fleet_extra/views/fleet_vehicle_views.xml", 8),
    ]


def test_references_to_an_xml_id_qualified_and_bare(index: ProjectIndex) -> None:
    refs = index.find_references("fleet_base.fleet_vehicle_action", limit=10)
    assert [(r.path, r.line, r.kind) for r in refs.references] == [
        ("fleet_base/views/fleet_menus.xml", 4, "xml"),
        ("fleet_extra/models/fleet_vehicle.py", 15, "python"),
    ]
    limited = index.find_references("fleet.vehicle", limit=2)
    assert len(limited.references) == 2 and limited.truncated


def test_references_need_a_known_target(index: ProjectIndex) -> None:
    with pytest.raises(NotFound):
        index.find_references("no.such.thing")
    with pytest.raises(InvalidInput):
        index.find_references("fleet.vehicle", kind="table")
    for half_id in ("fleet_base.", ".fleet_vehicle_action", "fleet_vehicle_action"):
        with pytest.raises(InvalidInput, match="module-qualified"):
            index.find_references(half_id, kind="xml_id")


def test_module_info(index: ProjectIndex) -> None:
    info = index.module_info("fleet_extra")
    assert info.dependencies == ["base", "web", "mail", "fleet_base"]
    assert info.dependents == ["fleet_auto"]
    assert [(d.path, d.exists) for d in info.data] == [("views/fleet_vehicle_views.xml", True)]
    assert info.models_extended == ["fleet.vehicle", "res.partner"] and info.models_defined == []
    assert "fleet_extra/data/fleet_extra_data.xml" in info.files
    assert index.module_info("fleet_base").groups == ["fleet_base.fleet_group_manager"]
    broken = index.module_info("broken_files")
    assert broken.missing_dependencies == ["ghost_module"]
    assert sorted(f.code for f in broken.findings) == [
        "csv-error",
        "python-syntax",
        "xml-syntax",
    ]
    assert broken.models_defined == ["broken.ok"]  # the file next to a broken one is indexed


def test_findings_name_file_and_line(index: ProjectIndex) -> None:
    found = {(f.code, f.path, f.line) for f in index.findings()}
    assert found == {
        ("manifest-bad-value", "bad_manifest/__manifest__.py", 3),
        ("missing-dependency", "broken_files/__manifest__.py", None),
        ("csv-error", "broken_files/data/res.partner.csv", None),
        ("python-syntax", "broken_files/models/bad_syntax.py", 4),
        ("xml-syntax", "broken_files/views/bad.xml", 5),
    }
    assert index.module_info("bad_manifest").version == "1.0"  # other keys of that manifest still count


def test_auto_install_bridge(index: ProjectIndex) -> None:
    assert "fleet_auto" in index.addons.closure(["fleet_extra"], auto_install=True)
    assert "fleet_auto" not in index.addons.closure(["fleet_base"], auto_install=True)
    assert index.addons.install_order(["fleet_auto"]) == [
        "base",
        "web",
        "mail",
        "fleet_base",
        "fleet_extra",
        "fleet_auto",
    ]
