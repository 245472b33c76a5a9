"""A code that is emitted but not catalogued fails here: read from the source (``code_sites``), and
from what the checks, migrate and the Odoo log reader emit on the fixtures (codes computed at run
time: an API change's id, a log failure's kind)."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

from odoo_tools.catalogue import entries, is_catalogued
from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.migrate import migrate
from odoo_tools.odoo_log import kinds, parse_odoo_log
from odoo_tools.series import SUPPORTED_SERIES
from tests.catalogue.code_sites import emitted_codes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LINTERS = ("pylint", "flake8", "ruff", "oca-hooks")  # their own codes are theirs; ours are catalogued


def _uncatalogued(findings: list[Finding]) -> list[tuple[str, str, str]]:
    return sorted(
        {
            (f.source, f.code, f.path)
            for f in findings
            if f.source not in LINTERS and not is_catalogued(f.code)
        }
    )


def test_every_code_written_in_the_source_is_catalogued() -> None:
    written = emitted_codes()
    assert len(written) > 100  # the reading still finds the sites (Finding(code=...), report.find...)
    missing = {code: sorted(modules) for code, modules in written.items() if not is_catalogued(code)}
    assert not missing, f"add these codes to odoo_tools/catalogue/codes/*.toml: {missing}"


def test_the_source_reading_follows_helpers(tmp_path: Path, monkeypatch: object) -> None:
    """A code passed through two helpers and a module constant is found (the reading can fail)."""
    import tests.catalogue.code_sites as sites

    package = tmp_path / "odoo_tools"
    package.mkdir()
    (package / "kinds.py").write_text('ODD = "odd-kind"\n', encoding="utf-8")
    (package / "x.py").write_text(
        textwrap.dedent(
            """
            from odoo_tools import kinds
            from odoo_tools.findings import Finding

            class Rule:
                rule = "class-rule"

            def _make(module, code, message):
                return Finding(source="static", code=code, message=message)

            def report(kind, message):
                return _make("m", kind, message)

            def use(flag):
                report(kinds.ODD, "a")
                _make("m", "left" if flag else "right", "b")
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(sites, "PACKAGE", package)  # type: ignore[attr-defined]
    assert set(sites.emitted_codes()) == {"odd-kind", "left", "right", "class-rule"}


def test_tables_of_codes_are_catalogued() -> None:
    assert [kind for kind in kinds.KINDS if not is_catalogued(kind)] == []
    assert all(kinds.HINTS[kind] for kind in kinds.KINDS)


def _broken_modules(tmp_path: Path) -> Path:
    """The ORM judge corpus's modules with every one of its breakages applied at once (a case
    whose text an earlier one changed is left out)."""
    root = tmp_path / "orm"
    shutil.copytree(FIXTURES / "orm_breakages" / "modules", root)
    for case in json.loads((FIXTURES / "orm_breakages" / "cases.json").read_text(encoding="utf-8")):
        path = root / case["module"] / case["file"] if case.get("file") else None
        text = path.read_text(encoding="utf-8") if path and path.is_file() else ""
        if path and text.count(case["old"]) == 1:
            path.write_text(text.replace(case["old"], case["new"]), encoding="utf-8")
    return root


def test_static_checks_on_every_fixture_tree_emit_catalogued_codes(tmp_path: Path) -> None:
    trees = [FIXTURES / "addons", FIXTURES / "series_20" / "old_style", FIXTURES / "series_20" / "clean"]
    trees += [FIXTURES / "migrate" / v for v in ("v16", "v17", "v18")]
    trees += [FIXTURES / "migrate_removed", _broken_modules(tmp_path)]
    seen: set[str] = set()
    for root in trees:
        project = load_project([root])
        for series in (None, *SUPPORTED_SERIES):
            if series:
                project.series = series
            addons = list(project.addon_set.addons.values())
            run = lint_addons_sync(project, addons, ["static"], cache=LintCache(None), digests=FileDigests())
            assert _uncatalogued(run.findings) == [], root
            seen |= {f.code for f in run.findings}
    assert {"missing-access-rule", "removed-tree", "view-field-unknown", "access-model-unknown"} <= seen


def test_migrate_on_the_fixture_modules_emits_catalogued_codes(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "migrate", tmp_path / "migrate")
    shutil.copytree(FIXTURES / "migrate_removed", tmp_path / "removed")
    folders = [tmp_path / "migrate" / v for v in ("v16", "v17", "v18")]
    report = migrate([*folders, *(p for p in (tmp_path / "removed").iterdir() if p.is_dir())], "20.0")
    findings = [f for m in report.modules for f in m.findings]
    assert _uncatalogued(findings) == []
    applied = {rule for m in report.modules for rule in m.rules_applied}
    assert [rule for rule in sorted(applied) if not is_catalogued(rule)] == []
    assert {"version-bump", "removed-attrs", "removed-tree"} <= applied


def test_odoo_logs_emit_catalogued_codes() -> None:
    logs = sorted((FIXTURES / "odoo_logs").rglob("*.log"))
    assert len(logs) > 20
    seen: set[str] = set()
    for log in logs:
        report = parse_odoo_log(log.read_text(encoding="utf-8", errors="replace"), roots=[], modules=[])
        assert _uncatalogued(report.findings) == [], log
        seen |= {f.code for f in report.findings}
    assert {"view-validation", "python-import", "test-failure"} <= seen


def test_every_family_has_entries() -> None:
    assert {e.family for e in entries()} == {
        "static",
        "orm",
        "api-change",
        "migrate",
        "odoo-run",
        "tooling",
        "linter",
    }
