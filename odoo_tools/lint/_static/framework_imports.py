"""Imports of framework names the project's series no longer has (``from odoo.tools import submap``
on 18.0): the module cannot be loaded, the install fails. Judged with the series registry's
framework name lists (``odoo_tools.series.gone_by``): a name an older series' ``odoo.tools``,
``odoo.osv``, ``odoo.fields``, ``odoo.models``, ``odoo.api`` or ``odoo.http`` gave and this one's
does not. Code ``removed-python-name``, as migrate reports it."""

from __future__ import annotations

from odoo_tools.findings import Finding
from odoo_tools.lint._framework_imports import removed_name_uses, still_given
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.series import gone_by, known_facts
from odoo_tools.sources import python_tree

CODE = "removed-python-name"


def check_framework_imports(ctx: StaticContext) -> list[Finding]:
    facts = known_facts(ctx.series)
    if facts is None:
        return []
    removed = gone_by(facts.series)
    if not removed.modules and not removed.names:
        return []
    found: list[Finding] = []
    for data in ctx.files():
        if data.kind != "python":
            continue
        tree = python_tree(ctx.absolute(data.path))
        if tree is None:
            continue  # a syntax error (or a file over the cap) is the index's finding
        for use in removed_name_uses(tree, removed):
            what = f"The module {use.module}" if not use.name else f"{use.module}.{use.name}"
            elsewhere = still_given(removed, use.module, use.name) if use.name else []
            hint = (
                f"Import it from {', '.join(elsewhere[:3])} (check it is the same one)."
                if elsewhere
                else f"Read the Odoo {facts.series} source for what replaced it."
            )
            fails = (
                "importing it fails when Odoo loads the file"
                if use.imported
                else "this line fails when it runs"
            )
            message = f"{what} is not in Odoo {facts.series} (older series had it): {fails}"
            found.append(
                ctx.finding(CODE, f"{message} (project series {facts.series}).", hint, data.path, use.line)
            )
    return found
