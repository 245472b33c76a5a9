"""The pack maker against a stand-in Odoo (fixtures/pack_maker_odoo) in a real subprocess: the dumper
runs by path under an interpreter that imports that ``odoo``, as it runs under a real Odoo's; the
driver script makes a whole pack from it. The real registry's agreement is tests/series/test_pack_real.py."""

from __future__ import annotations

import json
import lzma
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.series import load_pack
from odoo_tools.series.pack_maker import DUMPER, choose_modules, pack_bytes

ROOT = Path(__file__).resolve().parents[2]
FAKE = ROOT / "fixtures" / "pack_maker_odoo"


def _dump(*args: str) -> dict[str, Any]:
    command = [sys.executable, str(DUMPER), *args, "--odoo-dir", str(FAKE), "-c", str(FAKE / "odoo.conf")]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=FAKE.parent)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def pack() -> dict[str, Any]:
    return _dump("pack", "-d", "fake")


def test_models_keep_delegation_mixins_and_what_odoo_resolved(pack: dict[str, Any]) -> None:
    users = pack["models"]["res.users"]
    assert users["inherits"] == {"res.partner": "partner_id"}
    assert users["fields"]["partner_id"]["delegate"] is True
    assert users["fields"]["name"]["inherited"] == "res.partner"
    assert "related" not in users["fields"]["name"]  # the _inherits link is said by "inherited"
    assert users["fields"]["login"] == {"compute": "_compute_login", "modules": ["base"], "type": "char"}
    partner = pack["models"]["res.partner"]
    assert partner["modules"] == ["base", "sale_lite"]
    assert partner["inherit"] == ["mail.thread.lite"]
    assert partner["order"] == "name, id"  # a property on the class, read on a record
    assert partner["fields"]["message_ids"]["comodel"] == "mail.message"
    assert partner["fields"]["name"] == {
        "modules": ["base", "sale_lite"],  # from the fields' external IDs
        "readonly": True,
        "required": True,
        "type": "char",
    }
    assert partner["fields"]["order_count"]["store"] is False
    assert partner["fields"]["id"]["modules"] == ["base"]  # a field Odoo adds: the model's module


def test_methods_name_the_addons_that_define_them(pack: dict[str, Any]) -> None:
    partner = pack["models"]["res.partner"]["methods"]
    assert partner["write"] == {"modules": ["base", "sale_lite"], "params": "(self, vals)"}
    assert partner["message_post"]["modules"] == ["base"]
    assert "_compute_display_name" not in partner  # the framework's: once for every model
    assert pack["framework_methods"]["_compute_display_name"] == "(self)"
    users = pack["models"]["res.users"]["methods"]
    assert users["_build"]["params"] == "(cls, cr, *, strict=False)"


def test_no_text_of_odoo_only_structure(pack: dict[str, Any]) -> None:
    text = json.dumps(pack)
    for odoo_text in ("Draft", "not name", "placeholder", "return", 'Partner"'):
        assert odoo_text not in text
    state = pack["models"]["res.partner"]["fields"]["state"]
    assert state["selection"] == ["draft", "done"]
    assert state["groups"] == "base.group_user"


def test_views_are_skeletons_with_their_anchors(pack: dict[str, Any]) -> None:
    form = pack["views"]["base.view_partner_form"]
    assert form["arch"] == [
        "form",
        {},
        [["sheet", {}, [["group", {"name": "main"}, [["field", {"name": "name", "string": "Name"}, []]]]]]],
    ]
    assert form["combined"][2][0][2][0][2][1] == ["field", {"name": "order_count"}, []]
    extension = pack["views"]["sale_lite.view_partner_form_sale"]
    assert extension["inherit_id"] == "base.view_partner_form"
    assert "combined" not in extension
    xpath = extension["arch"][2][0]
    assert xpath[1] == {"expr": "//group[@name='main']", "position": "inside"}
    assert xpath[2][1] == ["t", {"t-call": "sale.tpl", "t-if": ""}, []]
    assert len(extension["arch"][2]) == 1  # the comment is not a node
    assert (form["order"], extension["order"]) == (0, 1)
    assert pack["xmlids"]["base"]["group_user"] == "res.groups"
    assert pack["access_models"] == {
        "base.access_partner": "res.partner",
        "sale_lite.partner_rule": "res.partner",
    }


def test_python_names_read_from_the_odoo_it_runs(pack: dict[str, Any]) -> None:
    names = pack["python_names"]
    assert "float_round" in names["odoo.tools"] and "misc" in names["odoo.tools"]
    assert "re" in names["odoo.tools.misc"] and "_private" not in names["odoo.tools.misc"]
    assert pack["series"] == "18.0" and pack["made_by"]["odoo_version"] == "18.0-fake"
    assert pack["modules"]["sale_lite"] == {"auto_install": False, "depends": ["base"], "order": 1}


def test_choose_modules_says_why_each_is_left_out() -> None:
    available = _dump("modules")["modules"]
    chosen, skipped = choose_modules(available)
    assert chosen == ["base", "sale_lite"]
    assert skipped == {
        "needs_lib": "missing external dependency: python library 'nolib' not installed",
        "shop_pro": "licence OEEL-1",
        "shop_pro_bridge": "depends on shop_pro (left out)",
        "test_lite": "test or IoT box module",
    }


def test_the_script_makes_the_same_pack_twice(tmp_path: Path) -> None:
    outputs = []
    for run in ("a", "b"):
        target = tmp_path / f"{run}.json.xz"
        command = [
            sys.executable,
            str(ROOT / "scripts" / "series_pack.py"),
            "--python",
            sys.executable,
            "--odoo-bin",
            str(FAKE / "odoo-bin"),
            "-c",
            str(FAKE / "odoo.conf"),
            "--db",
            "fake",
            "--load-only",
            "--out",
            str(target),
        ]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]
    data = json.loads(lzma.decompress(outputs[0]))
    assert data["made_by"]["installed"] is False and "views" not in data
    assert data["made_by"]["skipped"]["shop_pro"] == "licence OEEL-1"
    assert data["models"]["res.users"]["fields"]["name"]["inherited"] == "res.partner"
    assert pack_bytes(data) == outputs[0]
    read = load_pack(tmp_path / "a.json.xz")  # the reader gives the framework's methods back
    partner = read.model("res.partner") if read else None
    assert partner is not None and partner.methods["_compute_display_name"].modules == ()
    assert partner.methods["write"].modules == ("base", "sale_lite")


def test_names_bound_by_unpacking_are_read(tmp_path: Path) -> None:
    """19.0's odoo.tools.pdf binds NameObject by ``A, NameObject = generic.A, generic.NameObject``:
    pdf_xml_attachment imports it and installs on the 19.0 lab."""
    from odoo_tools.series.pack_maker.pack_python_names import python_names

    pdf = tmp_path / "odoo" / "tools" / "pdf"
    pdf.mkdir(parents=True)
    (tmp_path / "odoo" / "tools" / "__init__.py").write_text("", encoding="utf-8")
    (pdf / "__init__.py").write_text("A, (NameObject, *Rest) = 1, (2, 3)\n", encoding="utf-8")
    names, _open = python_names(tmp_path)
    assert {"A", "NameObject", "Rest"} <= set(names["odoo.tools.pdf"])
