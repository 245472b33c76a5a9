"""Addons on disk: discovery, manifests, the dependency graph and the project's Odoo series.

The face of the package: callers import from here; the ``_modules`` inside are private.
"""

from odoo_tools.addons._discovery import (
    Addon,
    AddonSet,
    discover_addons,
    odoo_core_roots,
    odoo_source_from_bin,
)
from odoo_tools.addons._manifest import ManifestCache, find_manifest_file
from odoo_tools.addons._series import (
    SeriesInfo,
    detect_series,
    module_series,
    project_series,
    selection_series,
)

__all__ = [
    "Addon",
    "AddonSet",
    "ManifestCache",
    "SeriesInfo",
    "detect_series",
    "discover_addons",
    "find_manifest_file",
    "module_series",
    "odoo_core_roots",
    "odoo_source_from_bin",
    "project_series",
    "selection_series",
]
