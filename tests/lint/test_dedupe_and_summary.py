from __future__ import annotations

from odoo_tools.findings import Finding
from odoo_tools.lint._dedupe import drop_duplicates
from odoo_tools.lint._summary import summarize


def _f(source: str, code: str, module: str = "m", severity: str = "error", message: str = "x") -> Finding:
    return Finding(source=source, code=code, module=module, severity=severity, message=message)  # type: ignore[arg-type]


def test_linter_finding_covered_by_static_is_dropped_only_when_static_ran() -> None:
    findings = [_f("oca-hooks", "file-not-used"), _f("static", "data-file-unlisted")]
    assert [f.code for f in drop_duplicates(findings, ["oca-hooks", "static"])] == ["data-file-unlisted"]
    only_hooks = [_f("oca-hooks", "file-not-used")]
    assert drop_duplicates(only_hooks, ["oca-hooks", "static"]) == only_hooks
    assert drop_duplicates(only_hooks, ["oca-hooks"]) == only_hooks


def test_coverage_is_per_module() -> None:
    findings = [_f("oca-hooks", "file-not-used", module="a"), _f("static", "data-file-unlisted", module="b")]
    assert len(drop_duplicates(findings, ["oca-hooks", "static"])) == 2


def test_missing_file_syntax_error_is_covered_by_data_file_missing() -> None:
    missing = _f("oca-hooks", "xml-syntax-error", message="[Errno 2] No such file or directory: ''")
    real = _f("oca-hooks", "xml-syntax-error", message="Opening and ending tag mismatch")
    kept = drop_duplicates([missing, real, _f("static", "data-file-missing")], ["oca-hooks", "static"])
    assert missing not in kept and real in kept


def test_summary_and_fail_on() -> None:
    summary = summarize([_f("a", "1"), _f("a", "2", severity="warning", module="n")])
    assert (summary.errors, summary.warnings, summary.infos) == (1, 1, 0)
    assert summary.modules_with_errors == ["m"]
    assert summary.failed("error") and summary.failed("warning")
    clean = summarize([_f("a", "2", severity="info")])
    assert not clean.failed("error") and not clean.failed("warning") and clean.failed("info")
