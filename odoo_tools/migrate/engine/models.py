"""What a migration answers (CLI JSON, the MCP tool's structured result, the benchmark)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from odoo_tools.findings import Finding


class StepOutcome(BaseModel):
    source: str
    target: str
    rules_applied: dict[str, int] = Field(description="How many times each rule rewrote something")
    findings: list[Finding] = Field(default_factory=list, description="What the rules could not rewrite")
    commit: str = Field(default="", description="The commit of this step (--commit), else ''")
    unchecked: list[str] = Field(
        default_factory=list, description="What this step could not do for want of an Odoo source, and which"
    )


class Proof(BaseModel):
    """The module installed and tested on the target series' real Odoo."""

    verdict: str = Field(description="passed | tests-failed | install-failed | blocked | not-run")
    installed: bool = False
    tests_run: int = 0
    tests_failed: int = 0
    first_failure: str = Field(default="", description="file:line and message of the first failure")
    blocked_by: list[str] = Field(default_factory=list, description="Dependencies the target series lacks")
    findings: list[Finding] = Field(default_factory=list)
    seconds: float = 0.0
    log_path: str = ""


class ModuleMigration(BaseModel):
    module: str
    path: str
    from_series: str
    to_series: str
    depends: list[str] = Field(default_factory=list, description="The manifest's dependencies")
    steps: list[StepOutcome]
    changed: list[str] = Field(default_factory=list, description="Files changed or created, module-relative")
    deleted: list[str] = Field(default_factory=list, description="Files removed (old migrations/)")
    written: bool = Field(default=False, description="False on a dry run: nothing on disk changed")
    diff: str = ""
    proof: Proof | None = None

    @property
    def rules_applied(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for step in self.steps:
            for rule, count in step.rules_applied.items():
                total[rule] = total.get(rule, 0) + count
        return total

    @property
    def findings(self) -> list[Finding]:
        return [finding for step in self.steps for finding in step.findings]


class MigrationReport(BaseModel):
    to_series: str
    written: bool
    modules: list[ModuleMigration]
