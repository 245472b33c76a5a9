"""Linters started early (``check`` starts them before its own imports): a spare reports exactly
what a fresh process reports, and a spare no batch needs is ended with the run."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.cli import _early_linters
from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, _spares, lint_addons_sync, load_project, start_spares
from odoo_tools.lint._spares import take_spare


def _lint(tree: Path, checks: list[str]) -> list[Finding]:
    project = load_project([tree])
    run = lint_addons_sync(project, project.select([]), checks, cache=LintCache(None), digests=FileDigests())
    return run.findings


def test_spare_linters_report_what_fresh_ones_report(fixture_copy: Path) -> None:
    checks = ["pylint", "oca-hooks"]
    fresh = _lint(fixture_copy, checks)
    start_spares(checks, busy_too=True)  # also on a busy test machine
    spared = dict(_spares._spares)
    assert set(spared) == set(checks)
    assert _lint(fixture_copy, ["pylint", "oca-hooks"]) == fresh
    assert take_spare("pylint") is None and take_spare("oca-hooks") is None  # each was used
    assert all(p._proc.returncode == 0 for p in spared.values())  # and ended cleanly
    assert any(f.source == "pylint" for f in fresh) and any(f.source == "oca-hooks" for f in fresh)


def test_a_spare_nobody_needs_ends_with_the_run(fixture_copy: Path) -> None:
    start_spares(["pylint", "oca-hooks"], busy_too=True)
    spared = dict(_spares._spares)
    _lint(fixture_copy, ["static"])
    assert _spares._spares == {}
    assert all(p._proc.poll() is not None for p in spared.values())  # no process left behind


def test_check_starts_only_the_linters_it_will_run() -> None:
    assert _early_linters([]) == ["pylint", "oca-hooks"]
    assert _early_linters(["--checks", "flake8,static"]) == []
    assert _early_linters(["--checks=pylint,static"]) == ["pylint"]
    assert _early_linters(["my_module", "--help"]) == []
