"""Pages a module put beside a page the new core view lost together with every page of its
notebook (16.0's server action form notebook, gone in 17.0: OCA server_action_mass_edit's pages
sat before its "security" page and its 17.0 install failed on it)."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.migrate import migrate
from odoo_tools.series import Series

from .test_anchors import _module, _source

OLD = (
    '<form><sheet><group name="main"/>'
    '<notebook><page name="code"/><page name="security"/><page name="help"/></notebook>'
    "</sheet></form>"
)
# the new view has a notebook of its own, unnamed, for other pages, shown in one state only
NEW = (
    '<form><sheet><group name="main"/><field name="child_ids"/>'
    '<notebook invisible="state != \'code\'"><page string="Code"/></notebook></sheet></form>'
)
PAGES = (
    '            <page name="security" position="{}">\n'
    '                <page name="mine" string="Mine">\n'
    '                    <field name="a"/>\n'
    "                </page>\n"
    "            </page>\n"
)


def _migrated(root: Path, old: str, new: str, spec: str) -> tuple[str, list[tuple[str, str]]]:
    sources = {
        Series(17): _source(root / "odoo17", 17, {"base_app": {"form": ("", old)}}),
        Series(18): _source(root / "odoo18", 18, {"base_app": {"form": ("", new)}}),
    }
    module = _module(root, [("base_app.form", spec)], depends="'base_app'")
    [migrated] = migrate([module], "18.0", odoo_sources=sources, write=True).modules
    found = [(f.code, f.message) for f in migrated.findings if "view" in f.code]
    return (module / "views" / "v.xml").read_text(), found


def test_pages_beside_a_gone_notebook_get_one_of_their_own_where_it_was(tmp_path: Path) -> None:
    for position in ("before", "after"):
        text, found = _migrated(tmp_path / position, OLD, NEW, PAGES.format(position))
        assert (
            '            <xpath expr="//group[@name=\'main\']" position="after">\n'
            "                <notebook>\n"
            '                    <page name="mine" string="Mine">\n'
            '                        <field name="a"/>\n'
            "                    </page>\n"
            "                </notebook>\n"
            "            </xpath>\n"
        ) in text
        [(code, message)] = found
        assert code == "retargeted-view-anchor" and "a <notebook> of their own" in message


def test_pages_go_into_their_notebook_when_the_new_view_still_names_it(tmp_path: Path) -> None:
    old = OLD.replace("<notebook>", '<notebook name="pages">')
    new = NEW.replace("<notebook invisible=\"state != 'code'\">", '<notebook name="pages">')
    text, found = _migrated(tmp_path, old, new, PAGES.format("before"))
    assert '<xpath expr="//notebook[@name=\'pages\']" position="inside">\n' in text
    assert "<notebook>" not in text
    assert [code for code, _ in found] == ["retargeted-view-anchor"]


def test_what_is_not_only_pages_beside_a_gone_notebook_stays_a_finding(tmp_path: Path) -> None:
    spec = (
        PAGES.format("before")
        .replace('<page name="mine" string="Mine">', "<group>")
        .replace("</page>\n  ", "</group>\n  ", 1)
    )
    text, found = _migrated(tmp_path, OLD, NEW, spec)
    assert '<page name="security" position="before">' in text
    assert [code for code, _ in found] == ["gone-view-anchor"]
