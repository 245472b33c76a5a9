"""Static cross-file checks of our own (no database), on top of the code index (room B).

Codes: data-file-missing, data-file-unlisted, missing-access-rule, model-not-in-dependencies,
acl-model-not-own, xml-id-undefined, xml-id-not-in-dependencies, xml-id-used-before-definition,
duplicate-xml-id, removed-attrs, removed-states, removed-tree, removed-view-mode-tree,
removed-name-get; plus the manifest reader's and dependency graph's findings for the module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.addons import Addon, AddonSet, series_major
from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.deprecations import check_removed
from odoo_tools.lint._static.manifest_files import check_manifest_files
from odoo_tools.lint._static.models import check_models
from odoo_tools.lint._static.xml_ids import check_refs
from odoo_tools.lint._static.xml_scan import XmlScan, scan_xml

if TYPE_CHECKING:
    from odoo_tools.lint._project import LintProject


def static_findings(project: LintProject, addon: Addon) -> list[Finding]:
    """Every static finding for ``addon``."""
    index = project.index()
    ctx = StaticContext(addon, project.addon_set, index.tables, series_major(project.series))
    found = _module_findings(project, ctx)
    if not addon.manifest.parsed:
        return found
    scans = _scans(ctx)
    found += check_manifest_files(ctx)
    found += check_models(ctx)
    found += check_refs(ctx, scans)
    found += check_removed(ctx, scans)
    return found


def _module_findings(project: LintProject, ctx: StaticContext) -> list[Finding]:
    """The manifest reader's, the graph's and the index's findings about this module."""
    addon_set, name = project.addon_set, ctx.addon.name
    found = [f for f in addon_set.findings if f.module == name]
    found += [_graded(addon_set, f) for f in project.graph_findings if f.module == name]
    found += [f for data in ctx.files() for f in data.findings]  # files that did not parse
    return found


def _graded(addon_set: AddonSet, finding: Finding) -> Finding:
    """Without an Odoo source every core dependency (base, mail...) looks missing: an info only
    (the graph's hint already says to configure the Odoo source)."""
    if finding.code != "missing-dependency" or addon_set.has_odoo_source:
        return finding
    return finding.model_copy(update={"severity": "info"})


def _scans(ctx: StaticContext) -> list[tuple[int, str, XmlScan]]:
    scans = []
    for position, rel in enumerate(ctx.loaded_files):
        path = ctx.absolute(rel)
        if rel.endswith(".xml") and path.is_file():
            scans.append((position, rel, scan_xml(path, ctx.addon.name)))
    return scans
