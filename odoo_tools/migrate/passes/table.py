"""The passes of every step, in the order they run around the step's own rules (``steps/``), each
with the knowledge it needs (``protocol.Pass``): the one place that says which pass needs which
Odoo source, and so what a report says was not checked without it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from odoo_tools.migrate.engine.manifest_step import bump_version, note_assets, remove_old_migrations
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.engine.upgrade_code import run_upgrade_code
from odoo_tools.migrate.passes.anchors import check_core_anchors
from odoo_tools.migrate.passes.domain_fields import rename_domain_fields
from odoo_tools.migrate.passes.group_privileges import move_group_categories
from odoo_tools.migrate.passes.moved_python_names import move_reexported_imports
from odoo_tools.migrate.passes.protocol import (
    BOTH_SOURCES,
    BOTH_VIEWS,
    METHODS,
    NEW_SOURCE,
    NOTHING,
    SOURCES_OR_PACKS,
    VIEWS,
    XML_IDS,
    Knowledge,
    Known,
    Pass,
    PassRun,
)
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
from odoo_tools.series import Series


def _upgrade_code(files: ModuleFiles, report: StepReport, known: Known) -> None:
    assert known.new_source is not None  # needs NEW_SOURCE
    run_upgrade_code(files, known.new_source, report)


def _anchors(files: ModuleFiles, report: StepReport, known: Known) -> None:
    assert known.read.views is not None  # needs VIEWS
    old, new = known.read.views
    check_core_anchors(files, new, report, old)


def _methods(function: Callable[[ModuleFiles, StepReport, CoreSource, CoreSource], None]) -> PassRun:
    """A pass that compares the two series' methods: read from both sources, else both packs."""

    def run(files: ModuleFiles, report: StepReport, known: Known) -> None:
        assert known.read.methods is not None  # needs METHODS
        function(files, report, *known.read.methods)

    return run


def _xml_ids(files: ModuleFiles, report: StepReport, known: Known) -> None:
    assert known.read.ids is not None  # needs XML_IDS
    find_removed_xml_ids(files, report, *known.read.ids)


def _redeclare(files: ModuleFiles, report: StepReport, known: Known) -> None:
    redeclare_removed(files, report, known.old_source)


def _both(function: Callable[[ModuleFiles, StepReport, Path, Path], None]) -> PassRun:
    """A pass that reads both series' sources: called with the two."""

    def run(files: ModuleFiles, report: StepReport, known: Known) -> None:
        assert known.old_source is not None and known.new_source is not None  # needs BOTH_SOURCES
        function(files, report, known.old_source, known.new_source)

    return run


def _plain(function: Callable[[ModuleFiles, StepReport], None]) -> PassRun:
    """A pass that needs only the bundled lists of the two series."""

    def run(files: ModuleFiles, report: StepReport, known: Known) -> None:
        function(files, report)

    return run


# Odoo's own word on its changes comes first: the target source's upgrade_code scripts.
BEFORE_RULES = (Pass("Odoo {target}'s own upgrade_code scripts", NEW_SOURCE, _upgrade_code),)

AFTER_RULES = (
    Pass("renamed core methods", METHODS, _methods(rename_core_methods)),
    Pass("changed method signatures", METHODS, _methods(drop_removed_parameters)),
    Pass("group and unit categories", BOTH_SOURCES, _both(move_group_categories)),
    Pass("group and unit categories", BOTH_SOURCES, _both(rewrite_uom_categories)),
    Pass("safe_eval calls", BOTH_SOURCES, _both(rewrite_safe_eval_calls)),
    Pass("tests' registry test mode", BOTH_SOURCES, _both(rewrite_registry_test_mode)),
    Pass("transient-only class attributes", BOTH_SOURCES, _both(rewrite_transient_attributes)),
    Pass("overrides of core methods the step removed", METHODS, _methods(find_removed_methods)),
    Pass("imports of core addon names the step removed", BOTH_SOURCES, _both(find_removed_addon_imports)),
    Pass("references to core external IDs the step removed", XML_IDS, _xml_ids),
    # before redeclaring: a field renamed is no longer one to declare again
    Pass("core fields the step renamed, in domains", NOTHING, _plain(rename_domain_fields)),
    Pass("core relations the step turned around", NOTHING, _plain(rename_swapped_relations)),
    Pass("core fields and models the step removed", NOTHING, _redeclare),
    Pass("values given to core fields the step removed", NOTHING, _plain(drop_removed_values)),
    Pass("framework names moved to a submodule", NOTHING, _plain(move_reexported_imports)),
    Pass("imports of framework names the step removed", NOTHING, _plain(find_removed_imports)),
    Pass("the manifest's version", NOTHING, _plain(bump_version)),
    Pass("the old series' migration scripts", NOTHING, _plain(remove_old_migrations)),
    Pass("JavaScript assets", NOTHING, _plain(note_assets)),
    Pass(
        "the anchors of inherited core views",
        VIEWS,
        _anchors,
        also=(("gone view anchors' successors", BOTH_VIEWS),),
    ),
)


def unchecked(source: Series, target: Series, known: Known) -> list[str]:
    """What the step ``source`` -> ``target`` leaves undone for want of an Odoo source, one
    sentence per kind of knowledge missing."""
    missing = []
    new_only = _unmet(known, NEW_SOURCE, target)
    if new_only:
        missing.append(f"{' and '.join(new_only)} (needs the {target} source)")
    old_only = _unmet(known, frozenset({Knowledge.OLD_SOURCE}), target)
    if old_only:
        missing.append(f"{' and '.join(old_only)} (needs the {source} source)")
    both = _unmet(known, BOTH_SOURCES, target)
    if both:
        given = ((source, known.old_source), (target, known.new_source))
        absent = " and ".join(str(series) for series, path in given if path is None)
        missing.append(f"{', '.join(both)} (needs the {source} and {target} sources: {absent} not given)")
    packs = [what for needs in SOURCES_OR_PACKS for what in _unmet(known, needs, target)]
    if packs:
        missing.append(
            f"{', '.join(dict.fromkeys(packs))} (needs the {source} and {target} sources, or both series' "
            "packs, made from installed databases for external IDs and views)"
        )
    return missing


def _unmet(known: Known, needs: frozenset[Knowledge], target: Series) -> list[str]:
    """What the passes needing exactly ``needs`` would tell, when that is not at hand; in order, once."""
    if known.has(needs):
        return []
    said: list[str] = []
    for step_pass in (*BEFORE_RULES, *AFTER_RULES):
        for what, part_needs in step_pass.parts():
            text = what.format(target=target)
            if part_needs == needs and text not in said:
                said.append(text)
    return said
