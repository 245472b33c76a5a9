"""``view-anchor-missing``: a spec of the module's inheriting view (``<xpath expr>``, ``<field
name position>``, ``<group name position>``..., a ``position="move"`` node; QWeb ``<template
inherit_id>`` too) that finds nothing in the arch Odoo combines for it at install: Odoo refuses the
view ("Element ... cannot be located in parent view").

The arch is rebuilt from the views of everything installed with the module (``view_sources``) and
walked as Odoo walks it (``view_chain``). An error when every view before the spec was read and
applied; a warning naming what was not (a module not read, a core view the pack's skeleton could
not apply); nothing when the spec anchors on what the series pack does not keep (text, an
attribute value other than name, id, class, string...), since that cannot be told.
"""

from __future__ import annotations

from lxml import etree

from odoo_tools.findings import Finding
from odoo_tools.index import attribute_line
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.spec_doubts import UNDECIDABLE
from odoo_tools.lint._static.view_chain import SpecBudget, first_unlocated
from odoo_tools.lint._static.view_sources import ChainViews, chain_views
from odoo_tools.storage import capped_lines

CODE = "view-anchor-missing"
UNCHECKED = "unchecked-view-anchor"


def check_view_anchors(ctx: StaticContext) -> list[Finding]:
    views: ChainViews | None = None
    found: list[Finding] = []
    lines: dict[str, list[str]] = {}
    budget = SpecBudget()
    for rel in dict.fromkeys(ctx.loaded_files):
        if not rel.endswith(".xml"):
            continue
        if views is None:
            views = chain_views(ctx)
        for view in [v for v in views.files.values() if v.path == rel and v.parent]:
            outcome = first_unlocated(views, view.xml_id, budget)
            if outcome is None or (outcome.doubt and _undecidable(outcome.doubt)):
                continue
            if rel not in lines:
                lines[rel] = capped_lines(ctx.absolute(rel))
            line = _line(lines[rel], outcome.spec)
            what = _what(outcome.spec)
            if outcome.unchecked:
                too_many = outcome.spec is view.arch  # the view's size or the check's budget, no one spec
                found.append(
                    ctx.finding(
                        UNCHECKED,
                        f"{what} was not looked up in the parent view of {view.xml_id}: {outcome.unchecked}",
                        "Split the view into smaller ones."
                        if too_many
                        else "Anchor on a plain path (//field[@name='x'], //div[hasclass('y')]).",
                        rel,
                        line,
                        "warning",
                    )
                )
                if budget.left < 0:
                    return found  # every later view would be over the budget too
                continue
            parent = view.parent or ""
            message = f"{what} cannot be located in the parent view {parent} (combined for this module)"
            if outcome.doubt:
                message += f" (not certain: {outcome.doubt})"
            found.append(
                ctx.finding(
                    CODE,
                    message,
                    f"Anchor on an element {parent} (or a view extending it in a dependency) has: "
                    "find_xml_id shows its inheritance chain.",
                    rel,
                    line,
                    "warning" if outcome.doubt else None,
                )
            )
    return found


def _undecidable(doubt: str) -> bool:
    """The pack keeps no text and few attribute values: a spec on them is not judged at all."""
    return doubt == UNDECIDABLE


def _line(lines: list[str], spec: etree._Element) -> int | None:
    start = spec.sourceline if isinstance(spec.sourceline, int) else 0
    if not start:
        return None
    attr = "expr" if spec.tag == "xpath" else next(iter(k for k in spec.attrib if k != "position"), "")
    return attribute_line(lines, start, str(attr)) if attr and lines else start


def _what(spec: etree._Element) -> str:
    if spec.tag == "xpath":
        return f"<xpath expr={str(spec.get('expr'))[:200]!r}>"
    attributes = " ".join(f'{k!s}="{v!s}"' for k, v in spec.attrib.items() if k != "position")
    return f"<{spec.tag} {attributes[:200]}>"
