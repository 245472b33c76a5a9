"""Lint and static checks for Odoo addons: pylint-odoo, flake8, oca-odoo-pre-commit-hooks and
our own cross-file checks, normalized into ``odoo_tools.findings.Finding``.

Public API:
- ``load_project(roots, readonly_roots=(), odoo_path=None, series_setting=None) -> LintProject``
  (``.select(targets)`` -> addons, ``.series``, ``.addon_set``); ``lint_project(project)``, the same
  from an ``odoo_tools.project.Project`` (its index shared);
- ``lint_addons(project, addons, checks=None, cache=..., digests=..., jobs=None,
  on_progress=None) -> LintRun`` (async) and ``lint_addons_sync``; ``CHECKS``;
- ``LintCache(directory)``, ``FileDigests()``, ``StoredDigests(cache_dir, roots)`` (file digests kept
  between processes: ``.save()`` after a run); ``summarize(findings)``;
- ``start_spares(tools)``: start pylint / the OCA hooks early (a CLI, first thing);
- ``core_graph(series)`` -> ``CoreList``: core modules' dependencies and models' modules (bundled;
  re-exported from ``odoo_tools.series``, their home);
- ``core_fields(series)``: core models of a series from the lists read from its source (what
  migrate compares; the static checks read the series packs), ``core_difference(old, new)``
  -> ``CoreDifference`` (removed models, ``RemovedField``s, changed fields, removed methods),
  ``core_model_fields(series, model)`` (its own and its parents' fields);
- ``removed_name_uses(tree, removed)`` -> ``NameUse``s: imports and reads of framework names a series
  no longer gives (``odoo_tools.series.RemovedNames``), ``still_given`` (where they still are);
  ``guarded_imports(tree)``: the imports a ``try`` catches the ImportError of (``CATCHING_IMPORT_ERROR``);
- ``adopt(project, findings, AdoptionOptions(...)) -> Adopted``: baseline and new-only;
  ``count_fingerprints(findings, LineReader(where))`` and ``without_known``: the same matching
  for a caller that keeps its own baseline (the agent's validation).

Names are imported on first use (PEP 562): a worker or a caller that needs one private module
(``_spares``, ``_digests``) does not pay for the whole package (pydantic models, the index).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.lazy_names import first_use_getattr

if TYPE_CHECKING:
    from odoo_tools.lint._adoption import Adopted, AdoptionOptions, adopt
    from odoo_tools.lint._baseline import (
        LineReader,
        count_fingerprints,
        on_changed_lines,
        read_baseline,
        without_known,
        write_baseline,
    )
    from odoo_tools.lint._cache import LintCache
    from odoo_tools.lint._changes import changed_files, changed_lines, changed_modules, shard
    from odoo_tools.lint._configs import (
        DEFAULT_FLAKE8,
        DEFAULT_PYLINTRC,
        DEFAULT_PYLINTRC_MANDATORY,
        DEFAULT_RUFF,
        project_linter_files,
    )
    from odoo_tools.lint._core import core_roots_from_python, split_core_roots
    from odoo_tools.lint._core_fields import (
        CoreDifference,
        RemovedField,
        core_difference,
        core_fields,
        core_model_fields,
    )
    from odoo_tools.lint._digests import StoredDigests
    from odoo_tools.lint._framework_imports import (
        CATCHING_IMPORT_ERROR,
        NameUse,
        guarded_imports,
        removed_name_uses,
        still_given,
    )
    from odoo_tools.lint._project import LintProject, lint_project, load_project
    from odoo_tools.lint._runner import CHECKS, LintRun, lint_addons, lint_addons_sync, validate_checks
    from odoo_tools.lint._spares import start_spares
    from odoo_tools.lint._summary import Summary, summarize
    from odoo_tools.lint._targets import SEARCH_DEPTH, roots_for_targets
    from odoo_tools.series import CoreList, core_graph
    from odoo_tools.storage import FileDigests

_WHERE = {
    "Adopted": "odoo_tools.lint._adoption",
    "AdoptionOptions": "odoo_tools.lint._adoption",
    "CHECKS": "odoo_tools.lint._runner",
    "CoreDifference": "odoo_tools.lint._core_fields",
    "CoreList": "odoo_tools.series",
    "DEFAULT_FLAKE8": "odoo_tools.lint._configs",
    "DEFAULT_PYLINTRC": "odoo_tools.lint._configs",
    "DEFAULT_PYLINTRC_MANDATORY": "odoo_tools.lint._configs",
    "DEFAULT_RUFF": "odoo_tools.lint._configs",
    "FileDigests": "odoo_tools.storage",
    "LineReader": "odoo_tools.lint._baseline",
    "LintCache": "odoo_tools.lint._cache",
    "LintProject": "odoo_tools.lint._project",
    "LintRun": "odoo_tools.lint._runner",
    "NameUse": "odoo_tools.lint._framework_imports",
    "RemovedField": "odoo_tools.lint._core_fields",
    "SEARCH_DEPTH": "odoo_tools.lint._targets",
    "StoredDigests": "odoo_tools.lint._digests",
    "Summary": "odoo_tools.lint._summary",
    "adopt": "odoo_tools.lint._adoption",
    "changed_files": "odoo_tools.lint._changes",
    "changed_lines": "odoo_tools.lint._changes",
    "changed_modules": "odoo_tools.lint._changes",
    "core_difference": "odoo_tools.lint._core_fields",
    "core_fields": "odoo_tools.lint._core_fields",
    "core_graph": "odoo_tools.series",
    "core_model_fields": "odoo_tools.lint._core_fields",
    "core_roots_from_python": "odoo_tools.lint._core",
    "count_fingerprints": "odoo_tools.lint._baseline",
    "lint_addons": "odoo_tools.lint._runner",
    "lint_addons_sync": "odoo_tools.lint._runner",
    "lint_project": "odoo_tools.lint._project",
    "load_project": "odoo_tools.lint._project",
    "on_changed_lines": "odoo_tools.lint._baseline",
    "project_linter_files": "odoo_tools.lint._configs",
    "read_baseline": "odoo_tools.lint._baseline",
    "removed_name_uses": "odoo_tools.lint._framework_imports",
    "guarded_imports": "odoo_tools.lint._framework_imports",
    "CATCHING_IMPORT_ERROR": "odoo_tools.lint._framework_imports",
    "roots_for_targets": "odoo_tools.lint._targets",
    "shard": "odoo_tools.lint._changes",
    "split_core_roots": "odoo_tools.lint._core",
    "start_spares": "odoo_tools.lint._spares",
    "still_given": "odoo_tools.lint._framework_imports",
    "summarize": "odoo_tools.lint._summary",
    "validate_checks": "odoo_tools.lint._runner",
    "without_known": "odoo_tools.lint._baseline",
    "write_baseline": "odoo_tools.lint._baseline",
}

__all__ = [
    "CATCHING_IMPORT_ERROR",
    "CHECKS",
    "DEFAULT_FLAKE8",
    "DEFAULT_PYLINTRC",
    "DEFAULT_PYLINTRC_MANDATORY",
    "DEFAULT_RUFF",
    "SEARCH_DEPTH",
    "Adopted",
    "AdoptionOptions",
    "CoreDifference",
    "CoreList",
    "FileDigests",
    "LineReader",
    "LintCache",
    "LintProject",
    "LintRun",
    "NameUse",
    "RemovedField",
    "StoredDigests",
    "Summary",
    "adopt",
    "changed_files",
    "changed_lines",
    "changed_modules",
    "core_difference",
    "core_fields",
    "core_graph",
    "core_model_fields",
    "core_roots_from_python",
    "count_fingerprints",
    "guarded_imports",
    "lint_addons",
    "lint_addons_sync",
    "lint_project",
    "load_project",
    "on_changed_lines",
    "project_linter_files",
    "read_baseline",
    "removed_name_uses",
    "roots_for_targets",
    "shard",
    "split_core_roots",
    "start_spares",
    "still_given",
    "summarize",
    "validate_checks",
    "without_known",
    "write_baseline",
]


__getattr__ = first_use_getattr(globals(), _WHERE)
