"""Inherited core views whose anchor is gone in the target series: retargeted where the source
series' view tells what became of the anchor, removed when the spec only changed it, a finding
otherwise. Small fake Odoo sources of two series stand for the real ones."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from mcp import Client

from assista_mcp.cli import main
from odoo_tools.migrate import migrate
from odoo_tools.migrate.engine.edits import apply_edits
from odoo_tools.migrate.engine.xml_tags import read_xml
from odoo_tools.migrate.passes.retarget_plan import Plan, spec_edits
from odoo_tools.series import Series
from odoo_tools.view_inheritance import apply_spec, locate

from .conftest import snapshot

_RECORD = (
    '<record id="{id}" model="ir.ui.view"><field name="model">m</field>{inherit}'
    '<field name="arch" type="xml">{arch}</field></record>'
)

_OTHER = '<field name="user_id" position="after"><field name="other"/></field>'  # a module not depended on
OLD_VIEWS = {
    "base_app": {
        "settings": (
            "",
            '<form><div class="settings"><div name="apps"/><div data-key="base_app"/></div></form>',
        ),
        "search": (
            "",
            '<search><field name="name"/>'
            '<filter name="late" string="Late" domain="[(\'d\', \'&lt;\', 1)]"/>'
            '<filter name="mine" string="Mine" domain="[(\'u\', \'=\', uid)]"/>'
            '<separator/><filter name="old" string="Old"/></search>',
        ),
        "form": (
            "",
            '<form><sheet><group name="main"><field name="user_id"/><label for="a"/>'
            '<div name="dates"><field name="a"/></div><field name="b"/><field name="moved"/></group>'
            '<group name="more"><div name="box"><field name="c"/></div></group>'
            '<field name="lines"><tree><field name="p"/><field name="q"/></tree></field>'
            '<div id="pane_box"><div class="pane"><field name="e"/></div></div>'
            '<div name="two"/><div name="two"/></sheet></form>',
        ),
    },
    "sale_app": {
        "settings": ("base_app.settings", '<div name="apps" position="inside"><div name="shipping"/></div>'),
    },
    "other_app": {"form": ("base_app.form", _OTHER)},
}
NEW_VIEWS = {
    "base_app": {
        "settings": ("", '<form><div class="settings"><div name="apps"/><app name="base_app"/></div></form>'),
        "search": (
            "",
            '<search><field name="name"/>'
            '<filter name="filter_late" string="Overdue" domain="[(\'d\', \'&lt;\', 1)]"/>'
            '<filter name="mine" string="Mine" domain="[(\'u\', \'=\', uid)]"/></search>',
        ),
        "form": (
            "",
            '<form><sheet><group name="main"><field name="user_id"/><label for="a"/><field name="b"/>'
            '</group><group name="more"><field name="c"/><field name="moved"/></group>'
            '<field name="lines"><list><field name="p"/></list></field><div name="two_a"/><div name="two_b"/>'
            '<setting id="pane_box"><field name="e"/></setting>'
            "</sheet></form>",
        ),
    },
    "sale_app": {
        "settings": (
            "base_app.settings",
            '<div name="apps" position="inside"><block name="sale_shipping"/></div>',
        ),
        "form_primary": (
            "primary:base_app.form",
            '<field name="b" position="after"><field name="d"/></field>',
        ),
    },
    "other_app": {"form": ("base_app.form", _OTHER)},
}


def _source(root: Path, major: int, views: dict[str, dict[str, tuple[str, str]]]) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    for module, records in views.items():
        folder = root / "addons" / module
        (folder / "views").mkdir(parents=True)
        depends = ["base_app"] if module != "base_app" else []
        (folder / "__manifest__.py").write_text(repr({"name": module, "depends": depends}) + "\n")
        body = "".join(
            _RECORD.format(
                id=xml_id,
                inherit=f'<field name="inherit_id" ref="{parent.removeprefix("primary:")}"/>'
                + ('<field name="mode">primary</field>' if parent.startswith("primary:") else "")
                if parent
                else "",
                arch=arch,
            )
            for xml_id, (parent, arch) in records.items()
        )
        (folder / "views" / "views.xml").write_text(f"<odoo>{body}</odoo>\n")
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(17): _source(tmp_path / "odoo17", 17, OLD_VIEWS),
        Series(18): _source(tmp_path / "odoo18", 18, NEW_VIEWS),
    }


def _module(tmp_path: Path, records: list[tuple[str, str]], depends: str = "'sale_app'") -> Path:
    folder = tmp_path / "addons" / "mine"
    (folder / "views").mkdir(parents=True, exist_ok=True)
    (folder / "__manifest__.py").write_text(
        f"{{'version': '17.0.1.0.0', 'depends': [{depends}], 'data': ['views/v.xml']}}\n"
    )
    body = "".join(
        f'    <record id="{ref.split(".")[1]}_{n}" model="ir.ui.view">\n'
        f'        <field name="inherit_id" ref="{ref}"/>\n'
        f'        <field name="arch" type="xml">\n{arch}        </field>\n    </record>\n'
        for n, (ref, arch) in enumerate(records)
    )
    (folder / "views" / "v.xml").write_text(f"<odoo>\n{body}</odoo>\n")
    return folder


def _findings(
    module: Path, sources: dict[Series, Path], *, write: bool = True
) -> list[tuple[str, int | None]]:
    [migrated] = migrate([module], "18.0", odoo_sources=sources, write=write).modules
    return [(f.code, f.line) for f in migrated.findings if "view" in f.code]


def test_a_renamed_anchor_is_retargeted(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(
        tmp_path,
        [
            ("base_app.settings", '<xpath expr="//div[@name=\'shipping\']" position="inside"><a/></xpath>\n'),
            ("base_app.search", '<filter name="late" position="attributes"><attribute name="x"/></filter>\n'),
            ("base_app.settings", '<div data-key="base_app" position="inside"><b/></div>\n'),
        ],
    )  # fmt: skip
    assert _findings(module, sources) == [("retargeted-view-anchor", n) for n in (5, 11, 17)]
    text = (module / "views" / "v.xml").read_text()
    assert '<xpath expr="//block[@name=\'sale_shipping\']" position="inside"><a/></xpath>' in text
    assert '<filter name="filter_late" position="attributes"><attribute name="x"/></filter>' in text
    assert '<xpath expr="//app[@name=\'base_app\']" position="inside"><b/></xpath>' in text


def test_gone_anchors_move_to_a_surviving_neighbour(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(
        tmp_path,
        [
            ("base_app.form", '<div name="dates" position="after"><field name="x"/></div>\n'),
            ("base_app.form", "<xpath expr=\"//div[@name='dates']\" position=\"before\"><p/></xpath>\n"),
            ("base_app.form", '<div name="box" position="inside"><field name="z"/></div>\n'),
            ("base_app.form", "<xpath expr=\"//div[@id='pane_box']/div[hasclass('pane')]\"/>\n"),
        ],
    )  # fmt: skip
    assert [code for code, _ in _findings(module, sources)] == ["retargeted-view-anchor"] * 4
    text = (module / "views" / "v.xml").read_text()
    assert '<xpath expr="//field[@name=\'user_id\']" position="after"><field name="x"/></xpath>' in text
    assert '<xpath expr="//field[@name=\'b\']" position="before"><p/></xpath>' in text
    assert '<xpath expr="//group[@name=\'more\']" position="inside"><field name="z"/></xpath>' in text
    assert "<xpath expr=\"//setting[@id='pane_box']\"/>" in text  # a div before 17.0


def test_a_moved_field_and_a_tree_become_list_are_followed(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    specs = (
        "<xpath expr=\"//group[@name='main']/field[@name='moved']\" position=\"attributes\"/>\n"
        "            <xpath expr=\"//field[@name='lines']/tree/field[@name='q']\" position=\"after\"/>\n"
    )
    module = _module(tmp_path, [("base_app.form", specs)])
    assert _findings(module, sources) == [("retargeted-view-anchor", 5), ("retargeted-view-anchor", 6)]
    text = (module / "views" / "v.xml").read_text()
    assert '<xpath expr="//field[@name=\'moved\']" position="attributes"/>' in text
    assert '<xpath expr="//field[@name=\'p\']" position="after"/>' in text


def test_a_spec_that_only_changed_a_gone_element_is_removed(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    module = _module(
        tmp_path,
        [
            ("base_app.search", '<filter name="old" position="attributes"><attribute name="x"/></filter>\n'),
            ("base_app.search", '<filter name="old" position="replace"/>\n'
             '            <filter name="mine" position="after"><filter name="kept" string="K"/></filter>\n'),
        ],
    )  # fmt: skip
    assert _findings(module, sources) == [("removed-view-spec", 5), ("removed-view-spec", 11)]
    text = (module / "views" / "v.xml").read_text()
    assert 'ref="base_app.search"' in text and "search_0" not in text  # the emptied record went too
    assert '"old"' not in text and '<filter name="mine" position="after"><filter name="kept"' in text
    etree.fromstring(text.encode())  # still well-formed


def test_what_cannot_be_retargeted_safely_stays_a_finding(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    specs = (
        '<div name="dates" position="replace"><div name="mine"/></div>\n'  # replace with content
        '            <xpath expr="//div[@name=\'two\']" position="inside"/>\n'  # two candidates
        '            <xpath expr="//div[@name=\'never_there\']" position="after"/>\n'  # not core in 17.0
    )
    module = _module(tmp_path, [("base_app.form", specs)])
    before = snapshot(module)
    assert _findings(module, sources, write=False) == [("gone-view-anchor", 5), ("gone-view-anchor", 6)]
    assert snapshot(module) == before
    # what the 17.0 core view did not have either did not go with 18.0: a finding only without 17.0
    only_new = {Series(18): sources[Series(18)]}
    assert _findings(module, only_new, write=False) == [("gone-view-anchor", n) for n in (5, 6, 7)]


def test_a_gone_core_anchor_is_an_error_when_nothing_outside_core_may_add_it(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    """It anchored on the 17.0 core view and no view of what installs with it on 18.0 has it: the
    install fails. Without the 17.0 source, or with a dependency outside core, that is not sure."""
    spec = '<div name="dates" position="replace"><div name="mine"/></div>\n'

    def severities(depends: str, given: dict[Series, Path]) -> list[tuple[str, str]]:
        shutil.rmtree(tmp_path / "addons", ignore_errors=True)
        module = _module(tmp_path, [("base_app.form", spec)], depends)
        [migrated] = migrate([module], "18.0", odoo_sources=given).modules
        return [(f.code, f.severity) for f in migrated.findings if "view" in f.code]

    assert severities("'sale_app'", sources) == [("gone-view-anchor", "error")]
    assert severities("'sale_app'", {Series(18): sources[Series(18)]}) == [("gone-view-anchor", "warning")]
    assert severities("'sale_app', 'other_repository_module'", sources) == [("gone-view-anchor", "warning")]


def test_a_dry_run_writes_nothing_and_without_the_old_source_only_names_decide(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    module = _module(
        tmp_path,
        [
            ("base_app.settings", "<xpath expr=\"//div[@name='shipping']\" position=\"inside\"/>\n"),
            ("base_app.form", '<div name="dates" position="after"/>\n'),
        ],
    )  # fmt: skip
    before = snapshot(module)
    assert _findings(module, sources, write=False) == [
        ("retargeted-view-anchor", 5),
        ("retargeted-view-anchor", 11),
    ]
    assert snapshot(module) == before
    only_new = {Series(18): sources[Series(18)]}
    assert _findings(module, only_new) == [("retargeted-view-anchor", 5), ("gone-view-anchor", 11)]
    assert "//block[@name='sale_shipping']" in (module / "views" / "v.xml").read_text()


def test_cli_takes_the_old_source(
    tmp_path: Path, sources: dict[Series, Path], capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    module = _module(tmp_path, [("base_app.form", '<div name="dates" position="after"/>\n')])
    argv = ["migrate", str(module), "--to", "18.0", "--odoo-path", str(sources[Series(18)]), "--no-diff"]
    assert main([*argv, "--from-odoo-path", str(sources[Series(17)])]) == 0
    out = capsys.readouterr().out
    assert "warning: mine/views/v.xml:5: [retargeted-view-anchor]" in out and "user_id" in out
    assert "not proved: not installed nor tested on 18.0" in out and "not checked" not in out
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "warning: mine/views/v.xml:5: [gone-view-anchor]" in out
    assert "not checked (17.0 -> 18.0): group and unit categories" in out and "17.0 and 18.0 sources" in out
    # the two series' packs stand in for the sources where a step compares methods
    assert "overrides of core methods the step removed" not in out and "safe_eval calls" in out
    assert "upgrade_code" not in out  # the 18.0 source was given: its scripts ran
    assert main([*argv, "--from-odoo-path", str(tmp_path / "nowhere")]) == 2
    assert "--from-odoo-path" in capsys.readouterr().err


@pytest.mark.anyio
async def test_mcp_tool_takes_the_old_source_from_the_settings(
    tmp_path: Path, sources: dict[Series, Path], server_for: Callable[..., Any]
) -> None:
    """The MCP face reads the same ``from_odoo_path`` setting (``--from-odoo-path`` of serve/run,
    ASSISTA_FROM_ODOO_PATH, the project file once trusted) as the CLI's flag."""
    module = _module(tmp_path, [("base_app.form", '<div name="dates" position="after"/>\n')])
    call = {"module": "mine", "to_series": "18.0"}
    codes = []
    for extra in ({}, {"from_odoo_path": sources[Series(17)]}):
        async with Client(server_for(module.parent, odoo_path=sources[Series(18)], **extra)) as client:
            result = await client.call_tool("migrate_module", call)
        [migrated] = result.structured_content["modules"]
        codes.append(
            [(f["code"], f["line"]) for f in migrated["steps"][0]["findings"] if "view" in f["code"]]
        )
    assert codes == [[("gone-view-anchor", 5)], [("retargeted-view-anchor", 5)]]
    async with Client(
        server_for(module.parent, odoo_path=sources[Series(18)], from_odoo_path=tmp_path)
    ) as client:
        refused = await client.call_tool("migrate_module", call)
    assert refused.is_error and "--from-odoo-path" in refused.content[0].text  # type: ignore[union-attr]


def test_inheritance_follows_odoo() -> None:
    root = etree.fromstring('<form><group name="g"><field name="a"/></group><div class="x y"/></form>')
    spec = etree.fromstring(
        '<xpath expr="//div[hasclass(\'y\')]" position="before"><field name="b"/></xpath>'
    )
    root = apply_spec(root, spec, "v")
    assert [e.get("name") for e in root.iter("field")] == ["a", "b"]
    moved = etree.fromstring('<field name="b" position="after"><field name="a" position="move"/></field>')
    root = apply_spec(root, moved, "v")
    assert [e.get("name") for e in root.iter("field")] == ["b", "a"]
    assert locate(root, etree.fromstring('<group name="g" position="inside"/>')) is not None
    assert locate(root, etree.fromstring('<group name="h" position="inside"/>')) is None
    with pytest.raises(LookupError):
        apply_spec(root, etree.fromstring('<field name="zz" position="after"/>'), "v")


def test_a_spec_of_another_tag_becomes_an_xpath_keeping_the_rest() -> None:
    text = '<data>\n  <div  name="gone"\n       position="after" ><p/></div>\n</data>'
    doc = read_xml(text)
    [spec] = list(doc.root)
    target = etree.fromstring('<field name="user_id"/>')
    plan = Plan(target, "before", "why", ("field", "name", "user_id"))
    new, _ = apply_edits(text, spec_edits(doc, spec, plan))
    assert new == (
        '<data>\n  <xpath  expr="//field[@name=\'user_id\']"\n       position="before" ><p/></xpath>\n</data>'
    )


def test_what_the_module_adds_to_a_view_is_there_in_the_views_inheriting_it(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    primary = "sale_app.form_primary"
    module = _module(
        tmp_path,
        [
            ("base_app.form", '<field name="user_id" position="after"><field name="mine"/></field>\n'),
            (primary, '<field name="mine" position="after"/>\n<field name="d" position="after"/>\n'),
            (primary, '<field name="nowhere" position="after"/>\n'),
        ],
    )  # fmt: skip
    assert _findings(module, {Series(18): sources[Series(18)]}, write=False) == [("gone-view-anchor", 18)]


def test_only_what_the_module_surely_has_is_a_new_anchor(tmp_path: Path, sources: dict[Series, Path]) -> None:
    """With a dependency outside the core, every core view is read (any core module may be
    installed), but the spec moves only next to what its dependencies surely add."""
    module = _module(
        tmp_path, [("base_app.form", '<div name="dates" position="after"/>\n')], "'sale_app', 'oca_x'"
    )
    assert _findings(module, sources) == [("retargeted-view-anchor", 5)]
    text = (module / "views" / "v.xml").read_text()
    assert '<xpath expr="//field[@name=\'user_id\']" position="after"/>' in text


def test_a_gone_container_of_the_root_moves_inside_the_root(tmp_path: Path) -> None:
    """16.0's settings form held its apps in <div class="settings">; 17.0's form holds them
    itself (OCA document_knowledge's xpath on hasclass('settings') failed its install)."""
    old = {
        "base_app": {
            "config": ("", '<form string="Settings"><div class="box"><div class="settings"/></div></form>')
        }
    }
    new = {"base_app": {"config": ("", '<form string="Settings"></form>')}}
    both = {
        Series(17): _source(tmp_path / "odoo17", 17, old),
        Series(18): _source(tmp_path / "odoo18", 18, new),
    }
    module = _module(
        tmp_path,
        [
            (
                "base_app.config",
                '<xpath expr="//div[hasclass(\'settings\')]" position="inside"><div/></xpath>\n',
            )
        ],
        depends="'base_app'",
    )
    assert _findings(module, both) == [("retargeted-view-anchor", 5)]
    assert '<xpath expr="//form" position="inside"><div/></xpath>' in (module / "views" / "v.xml").read_text()


def test_a_deeper_gone_anchor_retargeted_to_the_root_says_so(tmp_path: Path) -> None:
    """18.0's project kanban card div (OCA project_parent) has no counterpart in 19.0's card: the
    nearest element both have is the <kanban> itself, where a card's content may not show."""
    old = {
        "base_app": {
            "cards": ("", '<kanban><templates><t><div class="main"><div/></div></t></templates></kanban>')
        }
    }
    new = {"base_app": {"cards": ("", "<kanban><templates><t><main/></t></templates></kanban>")}}
    both = {
        Series(17): _source(tmp_path / "odoo17", 17, old),
        Series(18): _source(tmp_path / "odoo18", 18, new),
    }
    spec = '<xpath expr="//div[hasclass(\'main\')]/div[last()]" position="inside"><div/></xpath>\n'
    module = _module(tmp_path, [("base_app.cards", spec)], depends="'base_app'")
    [migrated] = migrate([module], "18.0", odoo_sources=both, write=True).modules
    [finding] = [f for f in migrated.findings if f.code == "retargeted-view-anchor"]
    assert "now the view's root itself" in finding.message
    assert '<xpath expr="//kanban" position="inside">' in (module / "views" / "v.xml").read_text()


def test_a_translated_attribute_never_locates_a_retarget() -> None:
    """Odoo refuses an inheriting view selecting on string/title/help (translated): such an
    element is no retarget (a finding stays) rather than an xpath the install refuses."""
    from odoo_tools.migrate.passes.counterparts import unique_locator as _locator

    tree = etree.fromstring('<form><group string="Main"/><group name="more" string="More"/></form>')
    assert _locator(tree[0], tree) is None
    assert _locator(tree[1], tree) == ("group", "name", "more")


def test_after_a_gone_last_child_is_at_its_parents_end(tmp_path: Path) -> None:
    """19.0's user form lost <group name="messaging">, the last group of the Preferences page:
    what a module put after it goes at the end of that page (custom garazd_product_label)."""
    old = {
        "base_app": {
            "users": ("", '<form><page name="prefs"><group/><group name="messaging"/></page></form>')
        }
    }
    new = {"base_app": {"users": ("", '<form><page name="prefs"><group name="other"/></page></form>')}}
    both = {
        Series(17): _source(tmp_path / "odoo17", 17, old),
        Series(18): _source(tmp_path / "odoo18", 18, new),
    }
    module = _module(
        tmp_path,
        [
            (
                "base_app.users",
                '<xpath expr="//group[@name=\'messaging\']" position="after"><group/></xpath>\n',
            )
        ],
        depends="'base_app'",
    )
    assert _findings(module, both) == [("retargeted-view-anchor", 5)]
    assert (
        '<xpath expr="//page[@name=\'prefs\']" position="inside"><group/></xpath>'
        in (module / "views" / "v.xml").read_text()
    )


def test_after_a_gone_end_of_a_settings_box_is_at_the_settings_end(tmp_path: Path) -> None:
    """16.0's settings boxes held their content in inner <div>s; 17.0's <setting> of the same id
    holds it itself: what OCA sale_timesheet_invoice_description put after the box's last
    <div name="msg_module_sale_timesheet"> goes at the end of that <setting> (its install failed)."""
    box = (
        '<div id="billing"><div class="o_setting_right_pane"><span>Billing</span>'
        '<div class="content-group" name="msg"><button name="b"/></div></div></div>'
    )
    old = {"base_app": {"config": ("", f'<form><div name="apps">{box}</div></form>')}}
    new = {
        "base_app": {
            "config": ("", '<form><block><setting id="billing"><button name="b"/></setting></block></form>')
        }
    }
    both = {
        Series(17): _source(tmp_path / "odoo17", 17, old),
        Series(18): _source(tmp_path / "odoo18", 18, new),
    }
    module = _module(
        tmp_path,
        [
            (
                "base_app.config",
                '<xpath expr="//div[@name=\'msg\']" position="after"><div name="mine"/></xpath>\n',
            )
        ],
        depends="'base_app'",
    )
    assert _findings(module, both) == [("retargeted-view-anchor", 5)]
    assert (
        '<xpath expr="//setting[@id=\'billing\']" position="inside"><div name="mine"/></xpath>'
        in (module / "views" / "v.xml").read_text()
    )


_PARTNER_OLD = (
    '<form><div class="oe_title"><h1>'
    '<field id="company" name="name" placeholder="Lumber" invisible="not is_company" required="1"/>'
    '<field id="individual" name="name" placeholder="Brandon" invisible="is_company" required="1"/>'
    '</h1></div><field name="child_ids"><form><field name="name"/></form></field>'
    '<field id="left" name="ref" placeholder="L"/><field id="right" name="ref" placeholder="R"/>'
    '<group string="Menus" groups="base.group_no_one"><field name="action_id"/></group>'
    '<field name="signature"/></form>'
)
_PARTNER_NEW = (
    '<form><div class="mb8"><h1 class="mb-0">'
    '<field name="name" placeholder="Lumber" invisible="not is_company" required="1"/>'
    '<field name="name" placeholder="Brandon" invisible="is_company" required="1"/>'
    '</h1></div><field name="child_ids"><form><field name="name"/></form></field>'
    '<field name="ref" placeholder="L"/><field name="ref" placeholder="R"/><field name="signature"/></form>'
)


def _partner_module(tmp_path: Path, specs: str) -> tuple[Path, dict[Series, Path]]:
    """19.0's partner form lost the ids of its two name fields (custom partner_firstname's
    //field[@id='individual'] failed its install) and its user form the action_id field."""
    old = {"base_app": {"partner": ("", _PARTNER_OLD)}}
    new = {"base_app": {"partner": ("", _PARTNER_NEW)}}
    both = {
        Series(17): _source(tmp_path / "odoo17", 17, old),
        Series(18): _source(tmp_path / "odoo18", 18, new),
    }
    return _module(tmp_path, [("base_app.partner", specs)], depends="'base_app'"), both


def test_a_field_that_lost_its_id_is_told_apart_by_untranslated_attributes(tmp_path: Path) -> None:
    specs = (
        '<xpath expr="//field[@id=\'individual\']" position="attributes"><attribute name="x">1</attribute>'
        "</xpath>\n"
        "            <xpath expr=\"//div[hasclass('oe_title')]//field[@id='company']/..\" position=\"after\">"
        "<group/></xpath>\n"
        '            <field name="name" position="attributes"/>\n'
    )
    module, both = _partner_module(tmp_path, specs)
    assert _findings(module, both) == [("retargeted-view-anchor", 5), ("retargeted-view-anchor", 6)]
    text = (module / "views" / "v.xml").read_text()
    assert "<xpath expr=\"//field[@name='name'][@invisible='is_company']\" position=\"attributes\">" in text
    assert "<xpath expr=\"//field[@name='name'][@invisible='not is_company']/..\" position=\"after\">" in text
    assert '<field name="name" position="attributes"/>' in text  # found as it is: untouched


def test_fields_told_apart_only_by_a_translated_attribute_stay_a_finding(tmp_path: Path) -> None:
    module, both = _partner_module(tmp_path, '<xpath expr="//field[@id=\'left\']" position="after"/>\n')
    before = snapshot(module)
    assert _findings(module, both, write=False) == [("gone-view-anchor", 5)]
    assert snapshot(module) == before


def test_what_sat_beside_a_field_the_view_no_longer_shows_is_removed(tmp_path: Path) -> None:
    """19.0's user form shows no action_id (custom web_responsive added is_redirect_home after it)."""
    module, both = _partner_module(
        tmp_path,
        '<field name="action_id" position="after"><field name="mine" invisible="action_id"/></field>\n',
    )
    [migrated] = migrate([module], "18.0", odoo_sources=both, write=True).modules
    [finding] = [f for f in migrated.findings if "view" in f.code]
    assert (finding.code, finding.line, finding.severity) == ("removed-view-spec", 5, "warning")
    assert "shows no field action_id" in finding.message and "not shown" in finding.message
    assert "action_id" not in (module / "views" / "v.xml").read_text()  # with its emptied record


def _templates_source(root: Path, major: int, body: str) -> Path:
    (root / "odoo").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    folder = root / "addons" / "base_app"
    (folder / "report").mkdir(parents=True)
    (folder / "__manifest__.py").write_text("{'name': 'base_app', 'depends': []}\n")
    (folder / "report" / "slip.xml").write_text(f"<odoo>{body}</odoo>\n")
    return root


def test_a_template_extending_a_core_template_follows_a_renamed_field(tmp_path: Path) -> None:
    """17.0 renamed stock.move.line's qty_done to quantity and the delivery slip's cells with it:
    OCA stock_move_packaging_qty's <template> extending it failed its 17.0 install on
    //td[@name='move_line_aggregated_qty_done']. An inactive core template changes nothing."""
    old = _templates_source(
        tmp_path / "odoo16",
        16,
        '<template id="slip"><table><tr><td name="line_qty_ordered"/><td name="line_qty_done"/>'
        "</tr></table></template>",
    )
    new = _templates_source(
        tmp_path / "odoo17",
        17,
        '<template id="slip"><table><tr><td name="line_qty_ordered"/><td name="line_quantity"/>'
        "</tr></table></template>"
        '<template id="option" inherit_id="base_app.slip" active="False">'
        '<xpath expr="//td[@name=\'line_qty_ordered\']" position="replace"/></template>',
    )
    module = tmp_path / "addons" / "mine"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'version': '16.0.1.0.0', 'depends': ['base_app'], 'data': ['views/slip.xml']}\n"
    )
    (module / "views" / "slip.xml").write_text(
        "<odoo>\n"
        '    <template id="slip" inherit_id="base_app.slip">\n'
        '        <xpath expr="//td[@name=\'line_qty_ordered\']" position="inside"><span/></xpath>\n'
        '        <xpath expr="//td[@name=\'line_qty_done\']" position="inside"><span/></xpath>\n'
        "    </template>\n"
        "</odoo>\n"
    )
    [migrated] = migrate(
        [module], "17.0", odoo_sources={Series(16): old, Series(17): new}, write=True
    ).modules
    assert [(f.code, f.line) for f in migrated.findings if "view" in f.code] == [
        ("retargeted-view-anchor", 4)
    ]
    text = (module / "views" / "slip.xml").read_text()
    assert '<xpath expr="//td[@name=\'line_quantity\']" position="inside"><span/></xpath>' in text
    assert "//td[@name='line_qty_ordered']" in text
    [finding] = [f for f in migrated.findings if f.code == "retargeted-view-anchor"]
    assert "(the field qty_done is quantity)" in finding.message


def test_the_parent_of_a_gone_element_is_followed_as_the_parent(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    """``X/..`` whose X has no counterpart: the anchor is X's parent, followed as any anchor."""
    module = _module(
        tmp_path,
        [("base_app.form", '<xpath expr="//div[@name=\'dates\']/.." position="inside"><p/></xpath>\n')],
    )
    assert _findings(module, sources) == [("retargeted-view-anchor", 5)]
    assert (
        '<xpath expr="//group[@name=\'main\']" position="inside"><p/></xpath>'
        in (module / "views" / "v.xml").read_text()
    )


def test_a_gone_anchor_renamed_in_place_is_followed_to_its_successor(tmp_path: Path) -> None:
    """16.0's invoice report discount column <th name="th_price_unit"> is 17.0's th_discount, between
    the same neighbours: "after th_priceunit" put OCA account_invoice_triple_discount's columns
    before the discount (found by running every rule over the corpora). The one new element of its
    tag in its place is its successor; with more than one new there, the neighbour is kept and the
    warning says to check the order; with nothing new, the neighbour is where it was."""
    row = '<table><tr><th name="th_priceunit"/>{}<th name="th_taxes"/></tr></table>'
    old = {"base_app": {"report": ("", row.format('<th name="th_price_unit"/>'))}}
    spec = '<th name="th_price_unit" position="after"><th name="disc2"/></th>\n'
    cases = (
        ('<th name="th_discount"/>', '<th name="th_discount" position="after">', "sits where it was"),
        ('<th name="a"/><th name="b"/>', '<th name="th_priceunit" position="after">', "check the order"),
        ("", '<th name="th_priceunit" position="after">', "was right before it"),
    )
    for number, (between, rewritten, said) in enumerate(cases):
        new = {"base_app": {"report": ("", row.format(between))}}
        root = tmp_path / str(number)
        both = {Series(17): _source(root / "odoo17", 17, old), Series(18): _source(root / "odoo18", 18, new)}
        module = _module(root, [("base_app.report", spec)], depends="'base_app'")
        [migrated] = migrate([module], "18.0", odoo_sources=both, write=True).modules
        [finding] = [f for f in migrated.findings if "view" in f.code]
        assert finding.code == "retargeted-view-anchor" and said in finding.message
        assert rewritten in (module / "views" / "v.xml").read_text()
