"""The proof's verdict from a validation's answer: passed, tests-failed, install-failed, blocked."""

from __future__ import annotations

from odoo_tools.findings import Finding
from odoo_tools.migrate import proof_of
from odoo_tools.odoo_log import TestCounts, kinds
from odoo_tools.runs._result import ModuleOutcome, TemplateUse, ValidationResult


def _result(
    state: str, findings: list[Finding], total: TestCounts | None = None, ok: bool = False
) -> ValidationResult:
    return ValidationResult(
        action="test", ok=ok, summary="", modules=[ModuleOutcome(module="m", state=state, ok=ok)],
        findings=findings, tests_total=total, duration_seconds=1.0, template=TemplateUse(status="hit"),
    )  # fmt: skip


def _error(kind: str, message: str, path: str = "m/x.py", line: int = 3) -> Finding:
    return Finding(source="odoo", code=kind, kind=kind, module="m", path=path, line=line, message=message)


def test_passed_and_a_failing_setup_class() -> None:
    assert proof_of(_result("installed", [], TestCounts(tests=4), ok=True), "m").verdict == "passed"
    setup = _result(
        "installed", [_error(kinds.TEST_ERROR, "TypeError: setUpClass() got ...")], TestCounts(errors=1)
    )
    proof = proof_of(setup, "m")
    assert (proof.verdict, proof.tests_run, proof.tests_failed) == ("tests-failed", 1, 1)
    assert proof.first_failure == "m/x.py:3: TypeError: setUpClass() got ..."


def test_install_failed_names_the_first_error() -> None:
    proof = proof_of(
        _result("uninstalled", [_error(kinds.VIEW_VALIDATION, "Field 'x' does not exist", "m/v.xml", 9)]), "m"
    )
    assert (proof.verdict, proof.installed, proof.first_failure) == (
        "install-failed", False, "m/v.xml:9: Field 'x' does not exist",
    )  # fmt: skip


def test_missing_dependencies_block_instead_of_failing() -> None:
    module = 'You try to install module "m" that depends on module "sale_other". But the latter...'
    assert proof_of(_result("absent", [_error(kinds.MISSING_DEPENDENCY, module)]), "m").blocked_by == [
        "sale_other"
    ]
    library = _error(kinds.PYTHON_IMPORT, "ModuleNotFoundError: No module named 'odoo_test_helper'")
    proof = proof_of(_result("uninstalled", [library]), "m")
    assert (proof.verdict, proof.blocked_by) == ("blocked", ["python:odoo_test_helper"])
    odoo_import = _error(kinds.PYTHON_IMPORT, "ModuleNotFoundError: No module named 'odoo.addons.gone'")
    assert proof_of(_result("uninstalled", [odoo_import]), "m").verdict == "install-failed"
