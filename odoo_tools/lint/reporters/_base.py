"""The one input every reporter reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from odoo_tools.findings import SEVERITY_RANK, Finding, Severity
from odoo_tools.lint._summary import Summary, summarize

INCOMPLETE = "INCOMPLETE: "  # a note that starts so names a check that could not run at all


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

    @property
    def incomplete(self) -> list[str]:
        """The checks that could not run (a linter missing), each with how to install it."""
        return [note.removeprefix(INCOMPLETE) for note in self.notes if note.startswith(INCOMPLETE)]

    @property
    def summary(self) -> Summary:
        return summarize(self.findings)

    @property
    def failed(self) -> bool:
        return self.summary.failed(self.fail_on)

    def blocking(self, finding: Finding) -> bool:
        return SEVERITY_RANK[finding.severity] >= SEVERITY_RANK[self.fail_on]

    def where(self, finding: Finding) -> str:
        where = self.display_path(finding) or finding.module
        if finding.line is not None:
            where += f":{finding.line}"
            if finding.column is not None:
                where += f":{finding.column}"
        return where
