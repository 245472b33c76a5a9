"""Odoo's core modules when no Odoo source is configured: the bundled lists ``check`` uses, so the
knowledge tools do not call ``base`` a missing dependency that ``check`` knows is fine, and an
unknown module name is told from a core one before any Odoo starts."""

from __future__ import annotations

from collections.abc import Iterable

from odoo_tools.addons import Addon, AddonSet
from odoo_tools.series import core_graph, series_of_version


def core_dependencies(addons: AddonSet, addon: Addon, project_series: str | None) -> list[str]:
    """``addon``'s dependencies that are not in the addons roots but are Odoo core modules of its
    series (its manifest's version, else the project's), known from the bundled list. Empty with
    an Odoo source: core modules are then found in the roots or truly missing."""
    if addons.has_odoo_source:
        return []
    own = series_of_version(addon.manifest.version) if addon.manifest.parsed else None
    core = core_graph(own or project_series).depends
    return [dep for dep in addon.depends if dep not in addons.addons and dep in core]


def unknown_modules(addons: AddonSet, project_series: str | None, names: Iterable[str]) -> list[str]:
    """The names found neither in the addons roots nor, without an Odoo source, among the core
    modules of the bundled list for ``project_series``."""
    core = () if addons.has_odoo_source else core_graph(project_series).depends
    return [name for name in names if name not in addons.addons and name not in core]
