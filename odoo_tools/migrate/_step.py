"""One series step of one module: Odoo's own upgrade_code scripts first (when the target's source
is known), then our rule table, the core fields the step removed and the module still uses
(declared by the module, from the two series' bundled lists) and the framework names it imports
that are gone, the core external IDs it refers to and the step removed, the version bump and the old
migrations' removal, then what is left to a person as findings."""

from __future__ import annotations

import re
from pathlib import Path

from odoo_tools.migrate.engine.edits import apply_edits
from odoo_tools.migrate.engine.manifest_step import bump_version, note_assets, remove_old_migrations
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_rules import rewrite_python
from odoo_tools.migrate.engine.report import Site, StepReport
from odoo_tools.migrate.engine.upgrade_code import run_upgrade_code
from odoo_tools.migrate.engine.xml_tags import XmlParseError, read_xml
from odoo_tools.migrate.passes.anchors import check_core_anchors
from odoo_tools.migrate.passes.group_privileges import move_group_categories
from odoo_tools.migrate.passes.python_signatures import drop_removed_parameters
from odoo_tools.migrate.passes.registry_test_mode import rewrite_registry_test_mode
from odoo_tools.migrate.passes.removed_addon_names import find_removed_addon_imports
from odoo_tools.migrate.passes.removed_core import redeclare_removed
from odoo_tools.migrate.passes.removed_methods import find_removed_methods
from odoo_tools.migrate.passes.removed_python import find_removed_imports
from odoo_tools.migrate.passes.removed_values import drop_removed_values
from odoo_tools.migrate.passes.removed_xml_ids import find_removed_xml_ids
from odoo_tools.migrate.passes.renamed_methods import rename_core_methods
from odoo_tools.migrate.passes.safe_eval_calls import rewrite_safe_eval_calls
from odoo_tools.migrate.passes.swapped_relations import rename_swapped_relations
from odoo_tools.migrate.passes.transient_attributes import rewrite_transient_attributes
from odoo_tools.migrate.passes.uom_categories import rewrite_uom_categories
from odoo_tools.migrate.steps.table import rules_for

# What the passes that need both series' sources do: said as not checked when one is not given.
# A pass added under "odoo_source and source_odoo_source" below belongs here too.
NEEDS_BOTH_SOURCES = (
    "renamed core methods",
    "changed method signatures",
    "group and unit categories",
    "safe_eval calls",
    "tests' registry test mode",
    "transient-only class attributes",
    "overrides of core methods the step removed",
    "imports of core addon names the step removed",
    "references to core external IDs the step removed",
    "gone view anchors' successors",
)


def migrate_step(
    files: ModuleFiles,
    source: int,
    target: int,
    odoo_source: Path | None = None,
    source_odoo_source: Path | None = None,
) -> StepReport:
    """Move ``files`` (in memory) from series ``source`` to ``target`` (= source + 1);
    ``odoo_source`` is the target series' Odoo source, ``source_odoo_source`` the source series'
    (it tells what became of the core view elements the module anchors on)."""
    report = StepReport(files.name, source, target)
    if odoo_source is not None:
        run_upgrade_code(files, odoo_source, report)
    rules = rules_for(target)
    python = [text for rel, text in files.texts.items() if rel.endswith(".py")]
    report.own_fields = {m.group(1) for text in python for m in _FIELD_DECLARATION.finditer(text)}
    report.mentions_embedded_actions = any("ir.embedded.actions" in text for text in files.texts.values())
    # Python first: a field's definition may move something into the module's views (states=)
    for rel in sorted(files.texts, key=lambda rel: (not rel.endswith(".py"), rel)):
        site = Site(files.site_path(rel), report)
        if rel.endswith(".xml") and rules.xml:
            files.texts[rel] = _rewrite_xml(files.texts[rel], rules.xml, site)
        elif rel.endswith(".py") and rules.python and not rel.startswith(("migrations/", "upgrades/")):
            files.texts[rel] = rewrite_python(files.texts[rel], rules.python, site)
    if odoo_source is not None and source_odoo_source is not None:
        rename_core_methods(files, report, source_odoo_source, odoo_source)
        drop_removed_parameters(files, report, source_odoo_source, odoo_source)
        move_group_categories(files, report, source_odoo_source, odoo_source)
        rewrite_uom_categories(files, report, source_odoo_source, odoo_source)
        rewrite_safe_eval_calls(files, report, source_odoo_source, odoo_source)
        rewrite_registry_test_mode(files, report, source_odoo_source, odoo_source)
        rewrite_transient_attributes(files, report, source_odoo_source, odoo_source)
        find_removed_methods(files, report, source_odoo_source, odoo_source)
        find_removed_addon_imports(files, report, source_odoo_source, odoo_source)
        find_removed_xml_ids(files, report, source_odoo_source, odoo_source)
    rename_swapped_relations(files, report)  # before: a field renamed is no longer one to declare again
    redeclare_removed(files, report, source_odoo_source)
    drop_removed_values(files, report)
    find_removed_imports(files, report)
    bump_version(files, report)
    remove_old_migrations(files, report)
    note_assets(files, report)
    if odoo_source is not None:
        check_core_anchors(files, odoo_source, report, source_odoo_source)
    return report


_FIELD_DECLARATION = re.compile(r"^\s+(\w+)\s*=\s*fields\.\w+\(", re.MULTILINE)


def _rewrite_xml(text: str, fixes: tuple, site: Site) -> str:  # type: ignore[type-arg]
    for fix in fixes:
        try:
            document = read_xml(text)
        except XmlParseError as exc:
            site.report.find(
                "xml-syntax",
                site.path,
                None,
                f"not migrated: {exc}",
                "Make the file well-formed XML, then migrate again.",
                severity="error",
            )
            return text
        text, _ = apply_edits(text, fix(document, site))
    return text
