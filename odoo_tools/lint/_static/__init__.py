"""Static cross-file checks of our own (no database), on top of the code index (``odoo_tools.index``).

Their codes, with the manifest reader's, the dependency graph's and the index's findings reported
with them, are the code catalogue's ``static`` and ``orm`` entries and the series registry's API
changes in effect on the project's series (``odoo_tools.catalogue``, ``docs/rules.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint._static.access import check_access
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.deprecations import check_removed
from odoo_tools.lint._static.framework_imports import check_framework_imports
from odoo_tools.lint._static.manifest_files import check_manifest_files
from odoo_tools.lint._static.models import check_models
from odoo_tools.lint._static.orm_python import check_orm_python
from odoo_tools.lint._static.orm_xml import check_orm_xml
from odoo_tools.lint._static.related_types import check_related_types
from odoo_tools.lint._static.view_anchors import check_view_anchors
from odoo_tools.lint._static.view_expr_check import check_view_expressions
from odoo_tools.lint._static.xml_ids import check_refs
from odoo_tools.lint._static.xml_scan import XmlScan, scan_xml
from odoo_tools.series import core_graph, known_facts, pack

if TYPE_CHECKING:
    from odoo_tools.lint._project import LintProject


def static_findings(project: LintProject, addon: Addon) -> list[Finding]:
    """Every static finding for ``addon``."""
    index = project.index()
    series = project.series_of(addon)
    core = None if project.addon_set.has_odoo_source else core_graph(series)
    series_pack = pack(series)
    ctx = StaticContext(
        addon,
        project.addon_set,
        index.tables,
        series,
        known_facts(series),
        core.depends if core else {},
        core.models if core else {},
        core.auto_install if core else {},
        # The bundled list tells which models exist only when it is the module's own series.
        core_exact=core is None or core.series == series,
        core_series=core.series if core else None,
        pack=series_pack,
    )
    found = _module_findings(project, ctx)
    if not addon.manifest.parsed:
        return found
    scans = _scans(ctx)
    found += check_manifest_files(ctx)
    found += check_models(ctx)
    found += check_refs(ctx, scans)
    found += check_removed(ctx, scans)
    found += check_framework_imports(ctx)
    found += check_access(ctx)
    found += check_orm_python(ctx)
    found += check_orm_xml(ctx)
    found += check_view_expressions(ctx)
    found += _beside(check_view_anchors(ctx), found)
    found += check_related_types(ctx)
    found = _demo_data_only(ctx, found)
    # An access rule's group outside the dependencies is seen both as an ACL and as a reference.
    unique = {(f.code, f.path, f.line, f.message): f for f in found}
    return list(unique.values())


# Read in odoo/modules/loading.py (load_demo) of 17.0, 18.0 and 19.0: a module's demo data loads in
# a savepoint, and when it fails Odoo logs "demo data failed to install, installed without demo
# data" and the module installs (res_company_active 19.0's demo sets res.groups' users: installed).
DEMO_NOTE = (
    " In demo data, though: when it fails to load, Odoo installs the module without its demo data "
    "(a warning in its log)."
)


def _demo_data_only(ctx: StaticContext, found: list[Finding]) -> list[Finding]:
    """An error in a file the manifest lists as demo only costs the demo data: a warning."""
    demo = {f"{ctx.addon.name}/{rel}" for rel in ctx.addon.manifest.demo}
    return [
        f.model_copy(update={"severity": "warning", "message": f.message + DEMO_NOTE})
        if f.severity == "error" and f.path in demo
        else f
        for f in found
    ]


def _beside(new: list[Finding], found: list[Finding]) -> list[Finding]:
    """The view chain's findings, but where the model check already said that a field anchor
    exists on no model (view-anchor-unknown): one cause, one finding."""
    said = {(f.path, f.line) for f in found if f.code == "view-anchor-unknown"}
    return [f for f in new if (f.path, f.line) not in said]


def _module_findings(project: LintProject, ctx: StaticContext) -> list[Finding]:
    """The manifest reader's, the graph's and the index's findings about this module."""
    addon_set, name = project.addon_set, ctx.addon.name
    found = [f for f in addon_set.findings if f.module == name]
    found += [g for f in project.graph_findings if f.module == name and (g := _graded(ctx, f)) is not None]
    loaded = set(ctx.loaded_files)  # an unlisted XML file is never parsed by Odoo: not an error
    found += [
        f for data in ctx.files() if data.kind == "python" or data.path in loaded for f in data.findings
    ]
    return found


def _graded(ctx: StaticContext, finding: Finding) -> Finding | None:
    """Without an Odoo source, a dependency on a core module (base, sale...) is known from the
    bundled list: not a finding. Any other absent dependency is an info, with an Odoo source too:
    an Enterprise module or one of another repository (OCA's CI installs those from PyPI), outside
    the addons path; its content cannot be checked, and the code is not wrong for it."""
    if finding.code != "missing-dependency":
        return finding
    absent = [d for d in ctx.addon.depends if d not in ctx.addon_set.addons and d not in ctx.core]
    if not absent:
        return None
    where = "in the Odoo source" if ctx.addon_set.has_odoo_source else "among Odoo's core modules"
    return finding.model_copy(
        update={
            "severity": "info",  # most often a module of another repository (oca_dependencies.txt)
            "message": f"{ctx.addon.name} depends on {', '.join(absent)}, found neither in the addons "
            f"roots nor {where} (an Enterprise module, or one of another repository?).",
        }
    )


def _scans(ctx: StaticContext) -> list[tuple[int, str, XmlScan]]:
    scans = []
    seen: set[str] = set()  # a file listed twice is scanned once (reported by duplicate-xml-id)
    for position, rel in enumerate(ctx.loaded_files):
        path = ctx.absolute(rel)
        if rel.endswith(".xml") and rel not in seen and path.is_file():
            seen.add(rel)
            scans.append((position, rel, scan_xml(path, ctx.addon.name)))
    return scans
