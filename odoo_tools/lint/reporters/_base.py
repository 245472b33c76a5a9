"""The one input every reporter reads."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from odoo_tools.findings import SEVERITY_RANK, Finding, Severity
from odoo_tools.lint._summary import Summary, summarize

INCOMPLETE = "INCOMPLETE: "  # a note that starts so names a check that could not run at all
# The check a finding is reported under when its source is not the check's own name: ruff runs as
# the "flake8" check (the repository's Python linter), our manifest/discovery/index findings are
# part of "static", and Odoo's own findings belong to the "odoo-install" or "odoo-test" check.
CHECK_OF_SOURCE = {"ruff": "flake8", "manifest": "static", "addons": "static", "index": "static"}
ODOO_SOURCE = "odoo"
ODOO_CHECK_PREFIX = "odoo-"


@dataclass
class Report:
    findings: list[Finding]
    modules: list[str]
    checks: tuple[str, ...]
    fail_on: Severity = "error"
    seconds: float = 0.0
    series: str | None = None
    display_path: Callable[[Finding], str] = field(default=lambda f: f.path)
    skipped: dict[str, str] = field(default_factory=dict)  # module -> why it was not checked
    notes: list[str] = field(default_factory=list)  # one line each: configuration used, limits...
    # The tools that ran (a finding's ``source``): ruff or flake8 for the "flake8" check, "odoo" for
    # the Odoo runs. Empty: one per check, by the check's name.
    ran: tuple[str, ...] = ()

    @property
    def incomplete(self) -> list[str]:
        """The checks that could not run (a linter missing), each with how to install it."""
        return [note.removeprefix(INCOMPLETE) for note in self.notes if note.startswith(INCOMPLETE)]

    @functools.cached_property
    def summary(self) -> Summary:
        """Counted once: a report's findings are final when it is made, and a run asks for its
        summary five times (12 ms each on 16,845 findings)."""
        return summarize(self.findings)

    @property
    def failed(self) -> bool:
        return self.summary.failed(self.fail_on)

    @property
    def tools(self) -> tuple[str, ...]:
        """Every tool that ran, whether or not it found anything (SARIF shows a clean run too)."""
        if self.ran:
            return self.ran
        return tuple(dict.fromkeys(_tool_of_check(check) for check in self.checks))

    def check_of(self, finding: Finding) -> str:
        """The check a finding is reported under (a JUnit test case per module and check)."""
        check = CHECK_OF_SOURCE.get(finding.source, finding.source)
        if check == ODOO_SOURCE:
            return next((c for c in self.checks if c.startswith(ODOO_CHECK_PREFIX)), check)
        return check

    def blocking(self, finding: Finding) -> bool:
        return SEVERITY_RANK[finding.severity] >= SEVERITY_RANK[self.fail_on]

    def where(self, finding: Finding) -> str:
        where = self.display_path(finding) or finding.module
        if finding.line is not None:
            where += f":{finding.line}"
            if finding.column is not None:
                where += f":{finding.column}"
        return where


def _tool_of_check(check: str) -> str:
    return ODOO_SOURCE if check.startswith(ODOO_CHECK_PREFIX) else check
