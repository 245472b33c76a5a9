"""The static checks' second cache key (Keys.static_facts_key): an edit that changes no fact of the
index re-runs them on the edited module alone, and an edit that does change one is never hidden by
a cached answer (a fresh project each run, as a pre-commit hook runs)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, LintRun, lint_addons_sync, load_project
from tests.lint.conftest import FIXTURE_ADDONS


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    target = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    return target


def _run(tree: Path, cache: LintCache) -> LintRun:
    project = load_project([tree])
    return lint_addons_sync(project, project.select([]), ["static"], cache=cache, digests=FileDigests())


def _places(findings: list[Finding]) -> list[tuple[str, str, int | None, str]]:
    return [(f.code, f.path, f.line, f.message) for f in findings]


def test_a_comment_re_runs_the_static_checks_of_its_module_only(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    _run(tree, cache)
    views = tree / "library_loan" / "views" / "library_loan_views.xml"
    views.write_text(views.read_text(encoding="utf-8") + "<!-- a comment -->\n", encoding="utf-8")
    warm = _run(tree, cache)
    assert warm.checked == {"static": ["library_loan"]}
    assert sorted(warm.cached["static"]) == ["library_base", "library_broken"]
    assert _places(warm.findings) == _places(_run(tree, LintCache(None)).findings)


def test_a_changed_fact_in_a_dependency_is_never_answered_from_the_cache(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    before = _places(_run(tree, cache).findings)
    menus = tree / "library_base" / "views" / "library_menus.xml"
    menus.write_text(menus.read_text(encoding="utf-8").replace("library_menu_root", "library_menu_top"))
    warm = _run(tree, cache)
    assert sorted(warm.checked["static"]) == ["library_base", "library_broken", "library_loan"]
    after = _places(warm.findings)
    assert after == _places(_run(tree, LintCache(None)).findings)
    new = [f for f in after if f not in before]
    assert any(p.startswith("library_loan/") and "library_menu_root" in m for _, p, _, m in new)
