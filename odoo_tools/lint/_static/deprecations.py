"""Uses of what the project's Odoo series removed or renamed, judged with the series registry's
API change table (``odoo_tools.series.api_changes``): view attributes and elements, view modes,
QWeb directives, icons, data types, models, route keywords, calls, class attributes and model
methods. Each finding's code is the entry's id."""

from __future__ import annotations

from dataclasses import replace

from odoo_tools.findings import Finding
from odoo_tools.lint._static.api_uses import Use, csv_uses, python_uses
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.view_landing import sub_view_lines
from odoo_tools.lint._static.view_sources import ChainViews, chain_views
from odoo_tools.lint._static.xml_scan import XmlScan
from odoo_tools.series import ApiChange, api_changes

# Inside an inline sub-view Odoo does not validate the construct: the view loads (checked on a real
# Odoo 18 for attrs and for an inline <tree>), so it is a warning saying what really happens.
_INLINE = "'{old}' in an inline sub-view is ignored since Odoo {since}: the condition has no effect"
_INLINE_BY_KIND = {
    "xml-element": "an inline <{old}> sub-view still installs on Odoo {since}, but <{old}> is the old name "
    "of <{new}>",
}


def check_removed(ctx: StaticContext, scans: list[tuple[int, str, XmlScan]]) -> list[Finding]:
    changes = {(change.kind, change.old): change for change in api_changes(ctx.series)}
    if not changes:
        return []
    uses = [(path, use) for _, path, scan in scans for use in scan.uses]
    for data in ctx.files():
        if data.kind == "python":
            uses += [(data.path, use) for use in python_uses(ctx.absolute(data.path))]
        elif data.kind == "csv" and data.path in ctx.loaded_files:
            uses += [(data.path, use) for use in csv_uses(data.path)]
    found = []
    landing = _Landing(ctx)
    for path, use in uses:
        change = changes.get((use.kind, use.name))
        if change is not None:
            found.append(_report(ctx, change, path, landing.placed(path, use)))
    methods = {old: change for (kind, old), change in changes.items() if kind == "python-method"}
    for data in ctx.files():
        for model_class in data.models:
            names = {method.name for method in model_class.methods}
            for method in model_class.methods:
                change = methods.get(method.name)
                if change is None or change.new in names:
                    continue  # the old method kept for older callers next to the new way: harmless
                found.append(_report(ctx, change, data.path, Use(change.kind, method.name, method.line)))
    return found


class _Landing:
    """Where what an inheriting view adds lands (``view_landing``), the views read once per check and
    only when an attribute some series removed is in such an element."""

    def __init__(self, ctx: StaticContext) -> None:
        self.ctx = ctx
        self.views: ChainViews | None = None
        self.lines: dict[str, dict[int, bool]] = {}

    def placed(self, path: str, use: Use) -> Use:
        """``use`` with ``inline`` as the combined arch says, where it says it."""
        if not use.added_at or use.kind != "xml-attribute" or self.ctx.facts is None:
            return use
        if path not in self.lines:
            self.views = self.views or chain_views(self.ctx)
            self.lines[path] = sub_view_lines(self.views, path, self.ctx.facts.inline_view_tags)
        inline = self.lines[path].get(use.added_at)
        return use if inline is None else replace(use, inline=inline)


def _report(ctx: StaticContext, change: ApiChange, path: str, use: Use) -> Finding:
    series = f"project series {ctx.series}"
    if use.inline:  # Odoo does not validate inline sub-views this way: it loads, the condition is ignored
        template = _INLINE_BY_KIND.get(change.kind, _INLINE)
        message = template.format(old=change.old, new=change.new, since=change.since)
        return ctx.finding(change.id, f"{message} ({series}).", change.hint, path, use.line, "warning")
    message = f"{change.message} ({series})"
    return ctx.finding(change.id, message, change.hint, path, use.line, change.severity)
