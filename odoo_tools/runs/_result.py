"""What a validation answers, and how it is judged: from the database and the log, never the
exit code alone (Odoo exits 0 for an unknown module, and ``-u`` of a module that is not
installed is a silent no-op)."""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import OdooLogReport, TestCounts, TestResult, kinds
from odoo_tools.runs._odoo_bin import OdooRun

Action = Literal["install", "upgrade", "test"]
NOT_INSTALLED = "not-installed"
NOT_UPGRADED = "not-upgraded"
TIMEOUT = "timeout"
ODOO_EXIT = "odoo-exit"
DEPENDENCY_BUILD = "dependency-build"
LOG_TAIL_LINES = 15


class ModuleOutcome(BaseModel):
    module: str
    state: str = Field(description="ir_module_module.state after the run; 'absent' if no row")
    ok: bool
    tests: TestCounts | None = Field(default=None, description="Odoo's per-module test summary")


class TemplateUse(BaseModel):
    status: Literal["hit", "built", "build_failed", "disabled", "skipped"] = Field(
        description="skipped: Odoo was not run, the manifests already said it would refuse"
    )
    name: str = ""
    build_seconds: float = 0.0
    spare: bool = Field(default=False, description="The clone had been prepared ahead of time")
    rebuilt_because: str = Field(
        default="", description="Why the existing template was not reused but rebuilt ('' if it was not)"
    )


class WarmUse(BaseModel):
    status: Literal["off", "warm", "cold"] = Field(
        default="off",
        description="warm: the modules' odoo-bin runs were forks of the warm worker (Odoo already "
        "imported); cold: a fresh odoo-bin although the worker is on (note says why); off: not used",
    )
    note: str = Field(
        default="", description="Why it was cold although on, or that the worker was (re)started and why"
    )


class ValidationResult(BaseModel):
    """The answer of install_module / upgrade_module / test_module (one or several modules)."""

    action: Action
    ok: bool
    summary: str
    modules: list[ModuleOutcome]
    findings: list[Finding] = Field(default_factory=list)
    tests: list[TestResult] = Field(default_factory=list)
    tests_total: TestCounts | None = None
    duration_seconds: float
    odoo_version: str = ""
    template: TemplateUse
    database: str = Field(default="", description="Database kept for inspection (keep_db), else ''")
    log_path: str = Field(default="", description="The raw Odoo log of this validation")
    log_resource: str = Field(default="", description="The same log as an MCP resource URI")
    exit_code: int | None = None
    timings: dict[str, float] = Field(
        default_factory=dict,
        description="Seconds per phase: database (template lock, build, clone), odoo_template "
        "(building it), odoo (the runs), cleanup (drop); the rest is our own bookkeeping",
    )
    timed_out: bool = False
    warm: WarmUse = Field(default_factory=WarmUse, description="Whether the warm worker ran odoo-bin")


def judge(
    action: Action,
    modules: Sequence[str],
    states: dict[str, str],
    report: OdooLogReport,
    *,
    exit_code: int,
    timed_out: bool,
    log: str,
    upgraded: Sequence[str] = (),
) -> tuple[list[ModuleOutcome], list[Finding]]:
    """Per-module outcome plus findings; adds a finding wherever the log alone explains nothing."""
    findings = list(report.findings)
    outcomes: list[ModuleOutcome] = []
    for module in modules:
        state = states.get(module, "absent")
        ok = state == "installed"
        if ok and action == "upgrade" and module not in upgraded:
            ok = False
            findings.append(_not_upgraded(module))
        counts = report.tests_by_module.get(module)
        if action == "test" and counts is not None and counts.failures + counts.errors:
            ok = False
        if state != "installed" and not _explained(module, findings):
            findings.append(_not_installed(module, state, exit_code, log))
        outcomes.append(ModuleOutcome(module=module, state=state, ok=ok, tests=counts))
    if exit_code == 0 and not timed_out and all(o.ok for o in outcomes):
        findings = [_went_on(f) if f.kind == kinds.LOG_ERROR else f for f in findings]
    if timed_out:
        hint = "Raise --odoo-timeout, or look for a loop or a blocking call at the end of the log."
        findings.append(_finding(TIMEOUT, "", "odoo-bin did not finish in time and was stopped.", log, hint))
    elif exit_code != 0 and not any(f.severity == "error" for f in findings):
        hint = "Read the log tail in the traceback field, or the raw log."
        findings.append(_finding(ODOO_EXIT, "", f"odoo-bin exited with code {exit_code}.", log, hint))
    return outcomes, findings


def _went_on(finding: Finding) -> Finding:
    """An ERROR line without a failure: Odoo went on and installed (seen: an install hook logging
    that a native library is missing, "the module will still install"). Worth a look, not a failure:
    a plain odoo-bin says installed, exit 0."""
    hint = "Odoo logged this error, yet installed the module and exited 0: " + kinds.HINTS[kinds.LOG_ERROR]
    return finding.model_copy(update={"severity": "warning", "hint": hint})


def answer(
    action: Action, modules: Sequence[str], states: dict[str, str], last: tuple[OdooRun, OdooLogReport],
    odoo_version: str, template: TemplateUse, upgraded: Sequence[str],
) -> ValidationResult:  # fmt: skip
    """The answer of a run of the modules themselves: the database's states, the last run's log."""
    odoo_run, report = last
    outcomes, findings = judge(
        action, modules, states, report, exit_code=odoo_run.returncode, timed_out=odoo_run.timed_out,
        log=odoo_run.log, upgraded=upgraded,
    )  # fmt: skip
    ok = is_ok(outcomes, findings, report.tests)
    return ValidationResult(
        action=action,
        ok=ok,
        summary=summarize(action, ok, outcomes, findings, report.tests),
        modules=outcomes,
        findings=findings,
        tests=report.tests,
        tests_total=report.tests_total,
        duration_seconds=0.0,
        odoo_version=odoo_version,
        template=template,
        exit_code=odoo_run.returncode,
        timed_out=odoo_run.timed_out,
    )


def is_ok(
    outcomes: Sequence[ModuleOutcome], findings: Sequence[Finding], tests: Sequence[TestResult]
) -> bool:
    failing_tests = any(t.status != "pass" for t in tests)
    return (
        all(o.ok for o in outcomes) and not failing_tests and not any(f.severity == "error" for f in findings)
    )


def summarize(action: Action, ok: bool, outcomes: Sequence[ModuleOutcome], findings: Sequence[Finding],
              tests: Sequence[TestResult]) -> str:  # fmt: skip
    names = ", ".join(o.module for o in outcomes)
    verb = {"install": "installed", "upgrade": "upgraded", "test": "tested"}[action]
    passed = sum(t.status == "pass" for t in tests)
    test_part = f"; tests {passed}/{len(tests)} passed" if action == "test" else ""
    warnings = sum(f.severity == "warning" for f in findings)
    if ok and warnings:
        return f"{names}: {verb}{test_part}, with {warnings} warning(s)."
    if ok:
        return f"{names}: {verb} cleanly{test_part}."
    errors = sum(f.severity == "error" for f in findings)
    states = ", ".join(f"{o.module}={o.state}" for o in outcomes)
    return f"{names}: not {verb} cleanly ({states}); {errors} error finding(s){test_part}."


def not_run(
    action: Action,
    modules: Sequence[str],
    findings: list[Finding],
    odoo_version: str,
    template: TemplateUse,
    *,
    state: str = "uninstalled",
    known: Container[str] = (),
) -> ValidationResult:
    """The answer when the modules themselves were never tried (refused up front, or their
    dependencies failed): each is ``state`` (``absent`` when not in ``known``)."""
    outcomes = [
        ModuleOutcome(module=m, state=state if not known or m in known else "absent", ok=False)
        for m in modules
    ]
    return ValidationResult(
        action=action,
        ok=False,
        summary=summarize(action, False, outcomes, findings, []),
        modules=outcomes,
        findings=findings,
        duration_seconds=0.0,
        odoo_version=odoo_version,
        template=template,
    )


def dependency_failure(log: str, report: OdooLogReport, template: str) -> list[Finding]:
    """Findings when the template (the dependencies) could not be built."""
    found = list(report.findings)
    found.append(
        _finding(
            DEPENDENCY_BUILD,
            "",
            "The dependencies of the modules under validation failed to install, so the modules "
            f"themselves were not tried (template {template}).",
            log,
            "Fix the dependency's findings above (validate that module on its own), then retry.",
        )
    )
    return found


def _explained(module: str, findings: Sequence[Finding]) -> bool:
    """A load error, or an unknown-module finding naming it, already says why it is not installed."""
    for finding in findings:
        if finding.severity != "error":
            continue
        if finding.kind == kinds.UNKNOWN_MODULE:
            if module in finding.message:
                return True
            continue
        if finding.kind not in (kinds.TEST_FAILURE, kinds.TEST_ERROR, kinds.DEPRECATION):
            return True
    return False


def _not_installed(module: str, state: str, exit_code: int, log: str) -> Finding:
    return _finding(
        NOT_INSTALLED,
        module,
        f"Module {module} is '{state}' in the database after the run (odoo-bin exit code {exit_code}).",
        log,
        "Check the module name and that its folder is in --addons-path with an installable manifest; "
        "the raw log says what Odoo did.",
    )


def _not_upgraded(module: str) -> Finding:
    return Finding(
        source="odoo",
        code=NOT_UPGRADED,
        kind=NOT_UPGRADED,
        module=module,
        message=f"odoo-bin -u did not load module {module}: nothing was upgraded.",
        hint="An upgrade only runs for an installed module; read the raw log.",
    )


def _finding(code: str, module: str, message: str, log: str, hint: str) -> Finding:
    tail = "\n".join(log.rstrip().splitlines()[-LOG_TAIL_LINES:])
    return Finding(
        source="odoo", code=code, kind=code, module=module, message=message, hint=hint, traceback=tail
    )
