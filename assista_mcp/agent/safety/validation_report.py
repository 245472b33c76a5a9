"""What a validation found, as the model reads it: ``Problem`` lines and the turn's
``ValidationReport``, read from the answers of ``check_module`` and ``test_module``."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assista_mcp.agent.loop.toolset import ToolOutcome
from odoo_tools.findings import Finding

MAX_LISTED = 30


class Problem(BaseModel):
    """One thing that still fails, as the model should read it."""

    check: str
    where: str = ""
    code: str = ""
    message: str
    hint: str = ""

    def line(self) -> str:
        head = f"{self.where} " if self.where else ""
        code = f"[{self.code}] " if self.code else ""
        hint = f" Hint: {self.hint}" if self.hint else ""
        return f"- {head}{code}{self.message} ({self.check}){hint}"


class ValidationReport(BaseModel):
    files_changed: list[str] = Field(default_factory=list)
    validated: list[str] = Field(default_factory=list, description="'check_module:mod' etc.")
    fix_rounds: int = 0
    passed: bool = True
    still_failing: list[Problem] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)
    already_failing: int = Field(
        default=0, description="Errors that were in the modules before the edits: not counted"
    )

    def text(self) -> str:
        lines = [f"Files changed: {', '.join(self.files_changed) or 'none'}."]
        lines.append(f"Validated: {', '.join(self.validated) or 'nothing'} ({self.fix_rounds} fix round(s)).")
        lines += [f"Skipped: {s}" for s in self.skipped]
        if self.already_failing:
            lines.append(
                f"Not counted: {self.already_failing} error(s) that were there before the edits "
                "(see check_module)."
            )
        if self.passed:
            lines.append("Everything validated passes.")
        else:
            lines.append(f"Still failing ({len(self.still_failing)}):")
            lines += [p.line() for p in self.still_failing[:MAX_LISTED]]
        return "\n".join(lines)


def error_findings(outcome: ToolOutcome) -> list[Finding]:
    found = []
    for raw in (outcome.data or {}).get("findings") or []:
        try:
            finding = Finding.model_validate(raw)
        except ValueError:
            continue
        if finding.severity == "error":
            found.append(finding)
    return found


def problem_of(check: str, finding: Finding) -> Problem:
    return Problem(
        check=check,
        where=_where(finding.path or finding.module, finding.line),
        code=finding.code,
        message=finding.message,
        hint=finding.hint,
    )


def problems_of(check: str, outcome: ToolOutcome) -> list[Problem]:
    """Error findings and failing tests from a check_module / test_module answer."""
    data = outcome.data or {}
    if outcome.is_error or not data:
        return [Problem(check=check, message=outcome.text or "the call failed")]
    problems = [
        Problem(
            check=check,
            where=_where(f.get("path") or f.get("module") or "", f.get("line")),
            code=str(f.get("code") or ""),
            message=str(f.get("message") or ""),
            hint=str(f.get("hint") or ""),
        )
        for f in data.get("findings") or []
        if f.get("severity", "error") == "error"
    ]
    for test in data.get("tests") or []:
        if test.get("status") in ("fail", "error"):
            where = _where(test.get("path") or test.get("module") or "", test.get("line"))
            name = f"{test.get('test_class')}.{test.get('method')}"
            problems.append(
                Problem(check=check, where=where, code=name, message=str(test.get("message") or ""))
            )
    failed = data.get("passed") is False or data.get("ok") is False
    if failed and not problems:
        problems.append(Problem(check=check, message=str(data.get("summary") or outcome.text)[:500]))
    return problems


def _where(path: str, line: Any) -> str:
    return f"{path}:{line}" if path and line else path
