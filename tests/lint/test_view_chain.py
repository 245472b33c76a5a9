"""view-anchor-missing (issue 31, "apply the inheritance chain"): an inheriting view's spec is looked
up in the parent arch Odoo combines for it at install (core views of the series pack in Odoo's
order, then the closure's own views), an error at the spec's line only when every view before it
was read; and the rebuild of the real 18.0 pack's views agrees with the arch Odoo combined."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.lint._static.view_chain import combined
from odoo_tools.lint._static.view_sources import ChainViews, skeleton_element
from odoo_tools.series import PACKS_ENV, pack
from odoo_tools.view_inheritance import FROM, apply_spec, spec_elements
from tests.lint.conftest import run_cli

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "series_packs" / "tiny_18.0.json"
CODE = "view-anchor-missing"


def _view(
    module: str, order: int, arch: list[Any], parent: str | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "model": extra.get("model", "res.partner"),
        "type": extra.get("type", "form"),
        "mode": extra.get("mode", "extension" if parent else "primary"),
        "priority": extra.get("priority", 16),
        "inherit_id": parent,
        "module": module,
        "order": order,
        "active": extra.get("active", True),
        "arch": arch,
    }


def _field(name: str) -> list[Any]:
    return ["field", {"name": name}, []]


PARTNER_FORM = [
    "form",
    {},
    [
        [
            "sheet",
            {},
            [
                ["group", {"name": "main"}, [_field("name")]],
                ["notebook", {}, [["page", {"name": "misc"}, []]]],
                ["button", {"name": "355", "type": "action"}, []],  # %(base.action_x)d as loaded
            ],
        ]
    ],
]
CORE_VIEWS = {
    "base.view_partner_form": _view("base", 1, PARTNER_FORM),
    # mail adds email to the main group and a box after the notebook
    "mail.view_partner_form_mail": _view(
        "mail",
        2,
        [
            "data",
            {},
            [
                ["xpath", {"expr": "//group[@name='main']", "position": "inside"}, [_field("email")]],
                ["notebook", {"position": "after"}, [["div", {"name": "mail_box"}, []]]],
            ],
        ],
        "base.view_partner_form",
    ),
    # applied after every view of priority 16: a module's view cannot anchor on what it adds
    "mail.view_partner_form_late": _view(
        "mail",
        3,
        ["sheet", {"position": "inside"}, [["group", {"name": "late"}, []]]],
        "base.view_partner_form",
        priority=99,
    ),
    # priority 0 (base_setup's settings form has it): before a module's view of priority 0
    "mail.view_partner_form_first": _view(
        "mail",
        5,
        ["sheet", {"position": "inside"}, [["group", {"name": "first"}, []]]],
        "base.view_partner_form",
        priority=0,
    ),
    # inactive: Odoo does not combine it
    "mail.view_partner_form_off": _view(
        "mail",
        4,
        ["sheet", {"position": "inside"}, [["group", {"name": "off"}, []]]],
        "base.view_partner_form",
        active=False,
    ),
    "base.report_thing": _view(
        "base",
        5,
        ["t", {"t-name": "base.report_thing"}, [["div", {"id": "header"}, [["span", {"t-if": ""}, []]]]]],
        model=None,
        type="qweb",
    ),
}
HEAD = '<?xml version="1.0" encoding="utf-8"?>\n<odoo>\n'


def _record(xml_id: str, parent: str, specs: str, primary: bool = False) -> str:
    mode = '\n    <field name="mode">primary</field>' if primary else ""
    return f"""  <record id="{xml_id}" model="ir.ui.view">
    <field name="name">{xml_id}</field>
    <field name="model">res.partner</field>
    <field name="inherit_id" ref="{parent}"/>{mode}
    <field name="arch" type="xml">
{specs}
    </field>
  </record>
"""


def _views_file() -> tuple[str, dict[str, int]]:
    parts = [
        (
            "ok_mail",
            "base.view_partner_form",
            '      <field name="email" position="after"><field name="phone"/></field>',
        ),
        (
            "ok_box",
            "base.view_partner_form",
            '      <xpath expr="//div[@name=\'mail_box\']" position="inside"/>',
        ),
        (
            "bad_group",
            "base.view_partner_form",
            '      <xpath expr="//group[@name=\'nope\']" position="inside"/>',
        ),
        ("bad_late", "base.view_partner_form", '      <group name="late" position="inside"/>'),
        ("bad_off", "base.view_partner_form", '      <group name="off" position="inside"/>'),
        (
            "bad_second",
            "base.view_partner_form",
            '      <data>\n        <page name="misc" position="inside"/>\n'
            '        <page name="gone" position="after"/>\n        <page name="gone2" position="after"/>\n'
            "      </data>",
        ),
        # the pack keeps no widget: it cannot be told, nothing is claimed
        (
            "widget",
            "base.view_partner_form",
            "      <xpath expr=\"//field[@name='name'][@widget='x']\" position=\"after\"/>",
        ),
        # a %(xml_id)d is a database id once loaded: the pack has none to compare with
        (
            "loaded_id",
            "base.view_partner_form",
            '      <xpath expr="//button[@name=\'%(base.action_x)d\']" position="after"/>',
        ),
        # ... but a path that finds nothing even without that test finds nothing with it
        (
            "widget_bad",
            "base.view_partner_form",
            "      <xpath expr=\"//field[@name='name'][@widget='x']/nope\" position=\"after\"/>",
        ),
    ]
    text = HEAD
    lines: dict[str, int] = {}
    for xml_id, parent, specs in parts:
        text += _record(xml_id, parent, specs)
    text += _record(
        "own_form",
        "base.view_partner_form",
        '      <field name="phone" position="after"><field name="company_id"/></field>',
        primary=True,
    )
    text += _record("on_own", "own_form", '      <field name="company_id" position="after"/>')
    text += _record("on_own_bad", "own_form", '      <field name="user_ids" position="after"/>')
    # a view read later does not exist yet when this one is checked, whatever its priority
    text += _record(
        "too_early", "base.view_partner_form", '      <group name="made_later" position="inside"/>'
    )
    text += _record(
        "maker", "base.view_partner_form", '      <sheet position="inside"><group name="made_later"/></sheet>'
    ).replace('<field name="arch"', '<field name="priority">1</field>\n    <field name="arch"')
    text += _record(
        "after_maker", "base.view_partner_form", '      <group name="made_later" position="inside"/>'
    )
    text += _record(
        "after_first", "base.view_partner_form", '      <group name="first" position="inside"/>'
    ).replace('<field name="arch"', '<field name="priority" eval="0"/>\n    <field name="arch"')
    text += """  <template id="report_ok" inherit_id="base.report_thing">
    <xpath expr="//div[@id='header']/span[@t-if]" position="after"/>
  </template>
  <template id="report_bad" inherit_id="base.report_thing">
    <xpath expr="//div[@id='footer']" position="after"/>
  </template>
</odoo>
"""
    for number, line in enumerate(text.splitlines(), start=1):
        for needle in (
            "'nope'",
            '"late"',
            '"off"',
            '"gone"',
            "/nope",
            '"user_ids"',
            "'footer'",
            '"made_later" position',
        ):
            if needle in line:
                lines.setdefault(needle, number)  # the first: after_maker anchors fine
    return text, lines


@pytest.fixture
def view_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = json.loads(TINY.read_text(encoding="utf-8"))
    data["views"] = copy.deepcopy(CORE_VIEWS)
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "18.0.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
    monkeypatch.setenv(PACKS_ENV, str(folder))
    return folder


def _module(root: Path, depends: list[str]) -> dict[str, int]:
    folder = root / "probe"
    (folder / "views").mkdir(parents=True)
    manifest = {"name": "probe", "version": "18.0.1.0.0", "license": "LGPL-3", "depends": depends}
    manifest["data"] = ["views/views.xml"]
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (folder / "__init__.py").write_text("", encoding="utf-8")
    text, lines = _views_file()
    (folder / "views" / "views.xml").write_text(text, encoding="utf-8")
    return lines


def _static(root: Path) -> list[Finding]:
    project = load_project([root])
    project.series = "18.0"
    run = lint_addons_sync(
        project, [project.addon_set.get("probe")], ["static"], cache=LintCache(None), digests=FileDigests()
    )
    # a field no model has is the model check's (view-anchor-unknown): one finding at that line
    return [f for f in run.findings if f.code in (CODE, "view-anchor-unknown")]


def test_a_spec_that_finds_nothing_where_odoo_applies_it_is_an_error_at_its_line(
    tmp_path: Path, view_pack: Path
) -> None:
    lines = _module(tmp_path / "addons", ["mail"])
    found = _static(tmp_path / "addons")
    path = "probe/views/views.xml"
    wanted = [
        "'nope'",
        '"late"',
        '"off"',
        '"gone"',
        "/nope",
        '"user_ids"',
        "'footer'",
        '"made_later" position',
    ]
    assert sorted((f.severity, f.path, f.line) for f in found) == sorted(
        ("error", path, lines[n]) for n in wanted
    ), found
    assert not [f for f in found if "gone2" in f.message]  # Odoo stops at a view's first failing spec
    late = next(f for f in found if f.line == lines['"late"'])
    assert "base.view_partner_form" in late.message


def test_a_dependency_not_read_makes_it_a_warning(tmp_path: Path, view_pack: Path) -> None:
    _module(tmp_path / "addons", ["mail", "web_enterprise_x"])
    found = _static(tmp_path / "addons")
    assert found and {f.severity for f in found} == {"warning"}
    assert all("web_enterprise_x" in f.message for f in found)


def test_cli_exit_code_follows_the_finding(tmp_path: Path, view_pack: Path) -> None:
    _module(tmp_path / "addons", ["mail"])
    args = ["check", "--addons-path", str(tmp_path / "addons"), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--odoo-series", "18.0"], tmp_path, tmp_path / "c", {PACKS_ENV: str(view_pack)})
    codes = [f["code"] for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]
    assert codes.count(CODE) == 8 and result.returncode == 1


def _structure(element: Any) -> list[Any]:
    keys = ("name", "id", "class", "expr", "position", "t-call", "type")
    attrs = {k: element.get(k) for k in keys if element.get(k) is not None}
    return [element.tag, attrs, [_structure(c) for c in element if isinstance(c.tag, str)]]


def test_the_rebuild_from_the_18_pack_skeletons_is_odoos_combined_arch() -> None:
    """Every primary view of the real 18.0 pack (a full install) rebuilt from the views' own arches
    as Odoo combines them: the same structure as the arch Odoo combined, but where a skeleton
    dropped what a core spec needs (measured: 3,536 of 3,753 the same, 94 %)."""
    series_pack = pack("18.0")
    assert series_pack is not None
    views = ChainViews.of_pack(series_pack)
    same = total = 0
    for xml_id, raw in series_pack.views.items():
        if (
            raw.get("mode") != "primary"
            or not isinstance(raw.get("combined"), list)
            or raw.get("active") is False
        ):
            continue
        total += 1
        rebuilt = combined(views, xml_id)
        same += rebuilt is not None and _structure(rebuilt) == _structure(skeleton_element(raw["combined"]))
    assert total > 3000 and same / total > 0.93
    for xml_id in ("base.view_partner_form", "account.view_invoice_tree", "stock.view_picking_form"):
        raw = series_pack.views[xml_id]
        rebuilt = combined(views, xml_id)
        assert rebuilt is not None and _structure(rebuilt) == _structure(skeleton_element(raw["combined"])), (
            xml_id
        )


def _apply_all(arch: str, specs: str) -> str:
    root = etree.fromstring(arch)
    for spec in spec_elements(etree.fromstring(f"<field name='arch'>{specs}</field>")):
        root = apply_spec(root, spec, "probe.view")
    for element in root.iter():
        if FROM in element.attrib:
            del element.attrib[FROM]
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding="unicode")


def test_specs_apply_as_odoos_template_inheritance() -> None:
    """odoo/tools/template_inheritance.py: $0 keeps the replaced node, mode="inner" replaces the
    content only, <attribute add/remove> edits a list, a <data>'s specs go to the end of the queue."""
    arch = '<form><group name="a" class="x y"><field name="f"/></group><div name="b"/></form>'
    wrapped = _apply_all(arch, '<field name="f" position="replace"><div name="w">$0</div></field>')
    assert '<group name="a" class="x y"><div name="w"><field name="f"/></div></group>' in wrapped
    inner = '<xpath expr="//group[@name=\'a\']" position="replace" mode="inner"><field name="g"/></xpath>'
    assert _apply_all(arch, inner) == (
        '<form><group name="a" class="x y"><field name="g"/></group><div name="b"/></form>'
    )
    edit = '<attribute name="class" add="z" remove="x" separator=" "/>'
    edit = f'<group name="a" position="attributes">{edit}</group>'
    assert 'class="y z"' in _apply_all(arch, edit)
    # the <data>'s spec runs after the plain one that follows it: it finds the group that one adds
    queued = '<data><group name="late" position="inside"/></data>'
    queued += '<div name="b" position="inside"><group name="late"/></div>'
    assert '<div name="b"><group name="late"/></div>' in _apply_all(arch, queued)
