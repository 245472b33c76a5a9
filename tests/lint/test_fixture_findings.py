"""The bundled addons: library_broken's known problems are found at file:line, the healthy
addons have no error, and each problem is reported once."""

from __future__ import annotations

from odoo_tools.lint import LintRun

REVIEW_PY = "library_broken/models/library_review.py"
REVIEW_XML = "library_broken/views/library_review_views.xml"
MANIFEST = "library_broken/__manifest__.py"

# Style (a missing license key, an unused import, a long line, string= redundant) is info and a
# print() a warning: only what breaks install, upgrade or runtime is an error by default. The
# comodel sale.order of a module that does not depend on sale is a warning: a real Odoo 18
# install logs it and goes on (fixtures/orm_breakages: comodel-outside-depends).
EXPECTED_ERRORS = {
    ("static", "data-file-missing", MANIFEST, 8),
    ("static", "missing-access-rule", REVIEW_PY, 5),
    ("static", "model-not-in-dependencies", REVIEW_PY, 22),  # _inherit sale.order
    ("static", "removed-tree", REVIEW_XML, 7),
    ("static", "removed-attrs", REVIEW_XML, 9),
    ("static", "xml-id-undefined", REVIEW_XML, 25),  # the menu's parent=
    ("static", "xml-id-undefined", REVIEW_XML, 26),  # and its action=
}


def _errors(run: LintRun, module: str) -> set[tuple[str, str, str, int | None]]:
    return {
        (f.source, f.code, f.path, f.line)
        for f in run.findings
        if f.module == module and f.severity == "error"
    }


def test_library_broken_errors_are_pinned(cold_run: LintRun) -> None:
    assert _errors(cold_run, "library_broken") == EXPECTED_ERRORS


def test_both_broken_menu_references_are_reported(cold_run: LintRun) -> None:
    undefined = [f.message for f in cold_run.findings if f.code == "xml-id-undefined"]
    assert len(undefined) == 2
    assert any("library_base.library_menu_does_not_exist" in m for m in undefined)
    assert any("library_broken.library_review_action" in m for m in undefined)


def test_library_broken_warnings_include_unlisted_file_and_description(cold_run: LintRun) -> None:
    warnings = {(f.code, f.path) for f in cold_run.findings if f.severity == "warning"}
    assert ("data-file-unlisted", "library_broken/views/unlisted_views.xml") in warnings
    assert ("model-without-description", REVIEW_PY) in warnings
    assert ("duplicate-xml-id", REVIEW_XML) in warnings  # Odoo loads it: the second one updates


def test_healthy_addons_have_no_error(cold_run: LintRun) -> None:
    assert _errors(cold_run, "library_base") == set()
    assert _errors(cold_run, "library_loan") == set()


def test_every_finding_has_a_hint_and_a_root_relative_path(cold_run: LintRun) -> None:
    for finding in cold_run.findings:
        assert finding.hint, finding
        assert finding.path.startswith(finding.module + "/"), finding


def test_linter_duplicates_of_static_findings_are_dropped(cold_run: LintRun) -> None:
    codes = {(f.source, f.code) for f in cold_run.findings}
    assert ("oca-hooks", "file-not-used") not in codes
    assert ("oca-hooks", "xml-duplicate-record-id") not in codes
    assert ("pylint", "F8101") not in codes
    assert not any(f.code == "xml-syntax-error" and f.module == "library_broken" for f in cold_run.findings)


def test_style_and_likely_bugs_are_graded_below_error(cold_run: LintRun) -> None:
    readme = [f for f in cold_run.findings if f.symbol == "missing-readme"]
    assert readme and all(f.severity == "info" for f in readme)
    graded = {(f.code, f.line): f.severity for f in cold_run.findings if f.path == REVIEW_PY}
    assert graded[("F401", 1)] == "info" and graded[("E501", 14)] == "info"
    assert graded[("W8116", 18)] == "warning"


def test_pylint_columns_are_one_based_like_flake8(cold_run: LintRun) -> None:
    print_used = next(f for f in cold_run.findings if f.symbol == "print-used")
    assert print_used.column == 9  # "        print(" starts at column 9 counting from 1
