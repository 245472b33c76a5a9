"""One series' core views as a migrated module sees them: only the core modules it can be
installed with, each view combined as Odoo combines it, and the module's own specs applied as they
go (a later spec may anchor on what an earlier one added)."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from lxml import etree

from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.core_views import CoreViews, combined, core_views, derived
from odoo_tools.migrate.passes.renamed_anchors import MODULE
from odoo_tools.view_inheritance import (
    FROM,
    apply_spec,
)


@dataclass
class SeriesViews:
    """One series' core views as the module sees them, with the module's own specs applied as
    they go (a later spec may anchor on what an earlier one added)."""

    source: CoreSource
    views: CoreViews
    modules: frozenset[str] | None  # the core modules installed with it; None: any may be
    sure: frozenset[str]  # the core modules installed with it whatever else it depends on
    renamed_fields: dict[str, str] = field(default_factory=dict)  # old -> new, renamed on this series
    trees: dict[str, etree._Element | None] = field(default_factory=dict)

    def surely_there(self, node: etree._Element) -> bool:
        """Whether a view of a module the module depends on (directly or not) added ``node``."""
        view = self.views.views.get(str(node.get(FROM) or ""))
        return view is not None and view.module in self.sure

    def tree(self, ref: str, primary: bool) -> etree._Element | None:
        if ref not in self.views.views:
            return None
        base = self.views.base_of(ref)
        if primary or base not in self.trees:
            parent = self.views.views[base].parent
            above = self.trees.get(self.views.base_of(parent)) if parent in self.views.views else None
            if parent is not None and above is not None:  # with what the module added there already
                tree: etree._Element | None = derived(self.source, base, self.modules, above)
            else:
                arch = combined(self.source, base, self.modules)
                tree = copy.deepcopy(arch) if arch is not None else None
            if primary:
                return tree
            self.trees[base] = tree
        return self.trees[base]

    def apply(self, ref: str, tree: etree._Element, spec: etree._Element, node: etree._Element) -> None:
        try:
            new_root = apply_spec(tree, spec, MODULE, node)
        except (LookupError, ValueError):
            return
        base = self.views.base_of(ref)
        if self.trees.get(base) is tree:
            self.trees[base] = new_root


def series_views(source: CoreSource, depends: list[str] | None) -> SeriesViews:
    views = core_views(source)
    core = [name for name in depends or [] if name in views.depends]
    return SeriesViews(
        source,
        views,
        views.installable_with(depends) if depends is not None else None,
        views.installable_with(core) or frozenset(),
    )


def manifest_depends(manifest: str | None) -> list[str] | None:
    try:
        data = ast.literal_eval(manifest) if manifest else None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    depends = data.get("depends", [])  # none: base only
    return [str(d) for d in depends] if isinstance(depends, list) else None
