"""ir.access (Odoo 20.0) as the module's access rules: CSV by model name or xml id, XML records,
operation letters, group-less restricting rows, domains; and the 20.0 API changes the XML and CSV
scans find."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.series import series_facts
from tests.lint.test_static_checks import XML_HEAD, _module, _static

MODEL = "from odoo import fields, models\n\n\nclass Thing(models.Model):\n    _name = 'my.thing'\n" \
    "    _description = 'Thing'\n\n    name = fields.Char()\n"  # fmt: skip


def _codes(found: list[Finding]) -> list[tuple[str, str, int | None, str]]:
    return sorted((f.code, f.path, f.line, f.severity) for f in found if f.source == "static")


def _access_module(tmp_path: Path, csv: str, extra: dict[str, str] | None = None) -> None:
    files = {"__init__.py": "from . import thing\n", "thing.py": MODEL, "security/ir.access.csv": csv}
    data = ["security/ir.access.csv", *(extra or {})]
    _module(tmp_path, "m", ["base"], data, {**files, **(extra or {})})
    manifest = tmp_path / "m" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.1.0.0", "20.0.1.0.0"))


def test_the_converters_two_csv_forms_grant_access_on_20(tmp_path: Path) -> None:
    by_name = (
        "id,name,model_id,group_id/id,operation,domain\naccess_thing,thing,my.thing,base.group_user,crud,\n"
    )
    _access_module(tmp_path / "a", by_name)
    assert _codes(_static(tmp_path / "a", "m", "20.0")) == []
    by_xml_id = (
        "id,name,model_id:id,group_id:id,operation\naccess_thing,thing,model_my_thing,base.group_user,r\n"
    )
    _access_module(tmp_path / "b", by_xml_id)
    assert _codes(_static(tmp_path / "b", "m", "20.0")) == []


def test_an_xml_ir_access_record_grants_access(tmp_path: Path) -> None:
    csv = "id,name,model_id,group_id/id,operation,domain\n"
    record = XML_HEAD + (
        '<odoo><record id="access_thing" model="ir.access"><field name="name">t</field>'
        '<field name="model_id" ref="model_my_thing"/><field name="group_id" ref="base.group_user"/>'
        '<field name="operation">cru</field></record></odoo>'
    )
    _access_module(tmp_path, csv, {"security/access.xml": record})
    assert _codes(_static(tmp_path, "m", "20.0")) == []


def test_group_less_rows_only_restrict_on_20(tmp_path: Path) -> None:
    csv = (
        "id,name,model_id,group_id/id,operation,domain\n"
        "rule_thing,thing,my.thing,,crud,\"[('name', '!=', False)]\"\n"
    )
    _access_module(tmp_path, csv)
    assert _codes(_static(tmp_path, "m", "20.0")) == [("missing-access-rule", "m/thing.py", 4, "error")]


def test_operations_and_domains_odoo_rejects(tmp_path: Path) -> None:
    csv = (
        "id,name,model_id,group_id/id,operation,domain\n"
        "a1,thing,my.thing,base.group_user,rwcd,\n"
        "a2,thing,my.thing,base.group_user,rc,\n"
        "a3,thing,my.thing,base.group_user,cr,\"[('name', '=',\"\n"
    )
    _access_module(tmp_path, csv)
    found = _static(tmp_path, "m", "20.0")
    assert _codes(found) == [
        ("access-domain-invalid", "m/security/ir.access.csv", 4, "error"),
        ("access-operation-invalid", "m/security/ir.access.csv", 2, "error"),
        ("access-operation-invalid", "m/security/ir.access.csv", 3, "error"),
    ]
    assert "did you mean 'cr'" in next(f.message for f in found if f.line == 3)


def test_the_operations_are_odoos_fifteen_crud_subsets() -> None:
    operations = series_facts("20.0").access.operations
    assert len(set(operations)) == 15 and {"crud", "cru", "r", "ud"} <= set(operations)
    assert "rw" not in operations and "rcud" not in operations
    assert series_facts("19.0").access.operations == ()


def test_account_groups_and_csv_named_after_them_on_20_only(tmp_path: Path) -> None:
    data = (
        XML_HEAD + '<odoo><record id="g1" model="account.group"><field name="name">G</field></record></odoo>'
    )
    files = {"data/groups.xml": data, "data/account.group.csv": "id,name\ng2,G2\n"}
    _module(tmp_path, "m", ["base"], list(files), files)
    assert _codes(_static(tmp_path, "m", "20.0")) == [
        ("replaced-account-group", "m/data/account.group.csv", 1, "warning"),
        ("replaced-account-group", "m/data/groups.xml", 2, "warning"),
    ]
    assert _codes(_static(tmp_path, "m", "19.0")) == []
