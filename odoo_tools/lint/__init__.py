"""Lint and static checks for Odoo addons: pylint-odoo, flake8, oca-odoo-pre-commit-hooks and
our own cross-file checks, normalized into ``odoo_tools.findings.Finding``.

Public API:
- ``load_project(roots, readonly_roots=(), odoo_path=None, series_setting=None) -> LintProject``
  (``.select(targets)`` -> addons, ``.series``, ``.addon_set``);
- ``lint_addons(project, addons, checks=None, cache=..., digests=..., jobs=None,
  on_progress=None) -> LintRun`` (async) and ``lint_addons_sync``; ``CHECKS``;
- ``LintCache(directory)``, ``FileDigests()``, ``StoredDigests(cache_dir, roots)`` (file digests kept
  between processes: ``.save()`` after a run); ``summarize(findings)``;
- ``adopt(project, findings, AdoptionOptions(...)) -> Adopted``: baseline and new-only.
"""

from __future__ import annotations

from odoo_tools.lint._adoption import Adopted, AdoptionOptions, adopt
from odoo_tools.lint._baseline import (
    LineReader,
    on_changed_lines,
    read_baseline,
    without_known,
    write_baseline,
)
from odoo_tools.lint._cache import LintCache
from odoo_tools.lint._changes import changed_files, changed_lines, changed_modules, shard
from odoo_tools.lint._configs import DEFAULT_FLAKE8, DEFAULT_PYLINTRC, DEFAULT_PYLINTRC_MANDATORY
from odoo_tools.lint._core import core_roots_from_python, split_core_roots
from odoo_tools.lint._digests import StoredDigests
from odoo_tools.lint._project import LintProject, load_project
from odoo_tools.lint._runner import CHECKS, LintRun, lint_addons, lint_addons_sync, validate_checks
from odoo_tools.lint._summary import Summary, summarize
from odoo_tools.lint._targets import SEARCH_DEPTH, roots_for_targets
from odoo_tools.storage import FileDigests

__all__ = [
    "CHECKS",
    "DEFAULT_FLAKE8",
    "DEFAULT_PYLINTRC",
    "DEFAULT_PYLINTRC_MANDATORY",
    "SEARCH_DEPTH",
    "Adopted",
    "AdoptionOptions",
    "FileDigests",
    "LineReader",
    "LintCache",
    "LintProject",
    "LintRun",
    "StoredDigests",
    "Summary",
    "adopt",
    "changed_files",
    "changed_lines",
    "changed_modules",
    "core_roots_from_python",
    "lint_addons",
    "lint_addons_sync",
    "load_project",
    "on_changed_lines",
    "read_baseline",
    "roots_for_targets",
    "shard",
    "split_core_roots",
    "summarize",
    "validate_checks",
    "without_known",
    "write_baseline",
]
