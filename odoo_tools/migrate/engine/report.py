"""What one migration step did to one module: rules applied (a count per rule id), findings left
for a person or the agent, and the files it changes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from odoo_tools.findings import Finding, Severity
from odoo_tools.series import Series

SOURCE = "migrate"


@dataclass
class StepReport:
    module: str
    source: Series  # 17.0 -> 18.0
    target: Series
    applied: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # (model, field) -> {attribute: expression}: what a field's Python definition said and 17.0
    # only reads in views (states=); the module's views of that model get it
    moved_modifiers: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    own_fields: set[str] = field(default_factory=set)  # field names the module's classes declare
    mentions_embedded_actions: bool = False  # ir.embedded.actions kept groups_id in 19.0
    # the target pack's modules the module depends on (engine/core_closure.py); None when unknown
    core_closure: frozenset[str] | None = None
    extends_view_inheritance: bool = False  # its Python overrides how inheriting views apply

    @property
    def target_series(self) -> str:
        return str(self.target)

    def count(self, rule: str, times: int = 1) -> None:
        self.applied[rule] += times

    def find(
        self, rule: str, path: str, line: int | None, message: str, hint: str, severity: Severity = "warning"
    ) -> None:
        """Something the rule could not rewrite safely: for a person or the agent, at file:line."""
        self.findings.append(
            Finding(
                source=SOURCE,
                code=rule,
                severity=severity,
                module=self.module,
                path=path,
                line=line,
                message=message,
                hint=hint,
            )
        )


@dataclass(frozen=True)
class Site:
    """One file of the module under migration: ``path`` as findings name it (relative to the
    addons root: ``module/views/x.xml``)."""

    path: str
    report: StepReport
