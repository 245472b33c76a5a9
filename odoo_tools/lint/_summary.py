"""Counts over findings, shared by the MCP tools, the CLI and the reporters."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, Field

from odoo_tools.findings import SEVERITY_RANK, Finding, Severity


class Summary(BaseModel):
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    by_source: dict[str, int] = Field(default_factory=dict)
    modules_with_errors: list[str] = Field(default_factory=list)

    def failed(self, fail_on: Severity) -> bool:
        floor = SEVERITY_RANK[fail_on]
        counts = {"error": self.errors, "warning": self.warnings, "info": self.infos}
        return any(count for severity, count in counts.items() if SEVERITY_RANK[severity] >= floor)


def summarize(findings: Sequence[Finding]) -> Summary:
    severities = Counter(f.severity for f in findings)
    return Summary(
        errors=severities["error"],
        warnings=severities["warning"],
        infos=severities["info"],
        by_source=dict(sorted(Counter(f.source for f in findings).items())),
        modules_with_errors=sorted({f.module for f in findings if f.severity == "error"}),
    )
