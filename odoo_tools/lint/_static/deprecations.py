"""Constructs the project's Odoo series removed: ``attrs``/``states`` (17.0), ``name_get``
(17.0), ``<tree>`` and view_mode ``tree`` (18.0)."""

from __future__ import annotations

from dataclasses import dataclass

from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.xml_scan import XmlScan


@dataclass(frozen=True)
class Removal:
    since: int
    message: str
    hint: str
    # Inside an inline sub-view Odoo does not validate the construct: the view loads (checked on a real
    # Odoo 18 for attrs and for an inline <tree>), so it is a warning saying what really happens.
    inline: str = (
        "'{name}' in an inline sub-view is ignored since Odoo {since}.0: the condition has no effect"
    )


REMOVED = {
    "attrs": Removal(
        17,
        "The 'attrs' attribute was removed in Odoo 17.0; the view no longer loads.",
        "Use the domain-free attributes: invisible=\"state != 'draft'\", readonly=..., required=...",
    ),
    "states": Removal(
        17,
        "The 'states' attribute was removed in Odoo 17.0.",
        "Replace states=\"a,b\" with invisible=\"state not in ('a', 'b')\".",
    ),
    "tree": Removal(
        18,
        "<tree> views are called <list> since Odoo 18.0.",
        "Rename the <tree> element to <list>.",
        inline="an inline <tree> sub-view still installs on Odoo {since}.0, but <tree> is the old name of "
        "<list>",
    ),
    "view_mode_tree": Removal(
        18,
        "view_mode 'tree' is called 'list' since Odoo 18.0.",
        "Write 'list' instead of 'tree' in view_mode.",
    ),
    "name_get": Removal(
        17,
        "name_get() is no longer called since Odoo 17.0; the display name ignores it.",
        "Override _compute_display_name() (with @api.depends) instead.",
    ),
}


def check_removed(ctx: StaticContext, scans: list[tuple[int, str, XmlScan]]) -> list[Finding]:
    if ctx.major is None:
        return []
    found = []
    for _, path, scan in scans:
        for construct in scan.constructs:
            found += _report(ctx, construct.name, path, construct.line, construct.inline)
    for data in ctx.files():
        for model_class in data.models:
            names = {method.name for method in model_class.methods}
            if "_compute_display_name" in names:
                continue  # name_get kept for older callers next to the new way: harmless
            for method in model_class.methods:
                if method.name == "name_get":
                    found += _report(ctx, "name_get", data.path, method.line)
    return found


def _report(ctx: StaticContext, name: str, path: str, line: int, inline: bool = False) -> list[Finding]:
    removal = REMOVED[name]
    if ctx.major is None or ctx.major < removal.since:
        return []
    code = f"removed-{name.replace('_', '-')}"
    if inline:  # Odoo does not validate inline sub-views this way: it loads, the condition is ignored
        message = removal.inline.format(name=name, since=removal.since)
        return [
            ctx.finding(
                code, f"{message} (project series {ctx.major}.0).", removal.hint, path, line, "warning"
            )
        ]
    return [ctx.finding(code, f"{removal.message} (project series {ctx.major}.0)", removal.hint, path, line)]
