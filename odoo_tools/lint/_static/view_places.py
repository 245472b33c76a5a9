"""Where an inheriting view's nodes land: the type of the view it inherits (a module's, else the
series pack's) and whether an ``xpath`` stays in the view itself rather than an inline sub-view."""

from __future__ import annotations

from odoo_tools.lint._static.context import StaticContext


def parent_type(ctx: StaticContext, parent: str) -> str:
    """The type of the view ``parent`` (a module's, else the series pack's), '' when unknown."""
    views = ctx.tables.views.get(parent)
    if views and views[-1].item.type:
        return views[-1].item.type
    core = ctx.pack.view(parent) if ctx.pack is not None else None
    return str(core.get("type", "")) if core is not None else ""


def stays_on_top(expr: str) -> bool:
    """An ``xpath`` that names no field nor sub-view element (``//sheet/group//div[...]``) is taken
    to land in the form itself: inline sub-views are lists and kanbans under a field, which such a
    path does not name (a form's own group or div inside one is possible, and then a Python
    domain's error is claimed where Odoo would not check it: measured, none on the corpora)."""
    return not any(word in expr for word in ("field", "list", "tree", "kanban", "..", "::", "templates"))
