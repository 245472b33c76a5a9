"""The proof of a migration: the module installed with demo data and its own tests run on the
target series' real Odoo, through the runner (template cache, warm worker when on)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from odoo_tools.findings import Finding
from odoo_tools.migrate.engine.models import Proof
from odoo_tools.odoo_log import kinds
from odoo_tools.runs import OdooRunner, ValidationResult

# What the target environment lacks (a module of another repository, a Python library): not the
# migration's failure.
BLOCKING_KINDS = (kinds.MISSING_DEPENDENCY, kinds.EXTERNAL_DEPENDENCY)
_DEPENDENCY = re.compile(r'depends on module "([^"]+)"')
# A Python library the environment lacks, imported by the module (a test helper such as
# odoo_test_helper, undeclared in the manifest): the environment's gap, not the migration's.
_MISSING_LIBRARY = re.compile(r"ModuleNotFoundError: No module named '([A-Za-z_][\w]*)")


async def prove(runner: OdooRunner, module: str) -> Proof:
    result = await runner.validate("test", [module], demo=True)
    return proof_of(result, module)


def held_back(depends: Sequence[str], proven: Mapping[str, Proof]) -> Proof | None:
    """The verdict on a module whose dependency, migrated in the same run, did not install on the
    target series: blocked by that module and not run, since its install would stop on the
    dependency's error and read as its own failure."""
    failed = [name for name in depends if name in proven and not proven[name].installed]
    return Proof(verdict="blocked", blocked_by=failed) if failed else None


def proof_of(result: ValidationResult, module: str) -> Proof:
    """The verdict on one module of a ``test`` validation. A test class whose setUpClass fails runs
    no test but is an error in Odoo's summary: it counts as a failure, never as "no tests"."""
    outcome = next((m for m in result.modules if m.module == module), None)
    installed = outcome is not None and outcome.state == "installed"
    mine = [t for t in result.tests if t.module == module]
    counts = [
        c for c in (outcome.tests if outcome is not None else None, result.tests_total) if c is not None
    ]
    failed = max([c.failures + c.errors for c in counts] + [len([t for t in mine if t.status != "pass"])])
    run = max([c.tests for c in counts] + [len(mine), failed])
    blocked = sorted(
        {
            m.group(1)
            for f in result.findings
            if f.kind == kinds.MISSING_DEPENDENCY
            for m in [_DEPENDENCY.search(f.message)]
            if m
        }
    )
    if not installed and not blocked:
        blocked = sorted({f"python:{m.group(1)}" for f in result.findings if f.severity == "error"
                          for m in [_MISSING_LIBRARY.search(f"{f.message}\n{f.traceback}")]
                          if m and m.group(1) != "odoo" and m.group(1) != module})  # fmt: skip
    if not installed and (blocked or any(f.kind in BLOCKING_KINDS for f in result.findings)):
        verdict = "blocked"
    elif not installed:
        verdict = "install-failed"
    elif failed or not result.ok:
        verdict = "tests-failed"
    else:
        verdict = "passed"
    return Proof(
        verdict=verdict,
        installed=installed,
        tests_run=run,
        tests_failed=failed,
        first_failure=first_failure(result) if verdict != "passed" else "",
        blocked_by=blocked,
        findings=[f for f in result.findings if f.severity == "error"],
        seconds=result.duration_seconds,
        log_path=result.log_path,
    )


def first_failure(result: ValidationResult) -> str:
    for test in result.tests:
        if test.status != "pass":
            where = f"{test.path}:{test.line}" if test.path else test.module
            return f"{where}: {test.test_class}.{test.method}: {test.message}".strip()
    for finding in result.findings:
        if finding.severity == "error":
            return f"{_where(finding)}: {finding.message}"
    return ""


def _where(finding: Finding) -> str:
    return finding.location()
