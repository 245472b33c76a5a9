"""Lint and static checks for Odoo addons: pylint-odoo, flake8, oca-odoo-pre-commit-hooks and
our own cross-file checks, normalized into ``odoo_tools.findings.Finding``.

Public API:
- ``load_project(roots, readonly_roots=(), odoo_path=None, series_setting=None) -> LintProject``
  (``.select(targets)`` -> addons, ``.series``, ``.addon_set``);
- ``lint_addons(project, addons, checks=None, cache=..., digests=..., jobs=None,
  on_progress=None) -> LintRun`` (async) and ``lint_addons_sync``; ``CHECKS``;
- ``LintCache(directory)``, ``FileDigests()``; ``summarize(findings)``.
"""

from __future__ import annotations

from odoo_tools.lint._cache import LintCache
from odoo_tools.lint._changes import changed_files, changed_modules, shard
from odoo_tools.lint._configs import DEFAULT_FLAKE8, DEFAULT_PYLINTRC, DEFAULT_PYLINTRC_MANDATORY
from odoo_tools.lint._project import LintProject, load_project
from odoo_tools.lint._runner import CHECKS, LintRun, lint_addons, lint_addons_sync, validate_checks
from odoo_tools.lint._summary import Summary, summarize
from odoo_tools.storage import FileDigests

__all__ = [
    "CHECKS",
    "DEFAULT_FLAKE8",
    "DEFAULT_PYLINTRC",
    "DEFAULT_PYLINTRC_MANDATORY",
    "FileDigests",
    "LintCache",
    "LintProject",
    "LintRun",
    "Summary",
    "changed_files",
    "changed_modules",
    "lint_addons",
    "lint_addons_sync",
    "load_project",
    "shard",
    "summarize",
    "validate_checks",
]
