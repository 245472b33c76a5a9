"""The one findings shape shared by lint, static checks, Odoo runs, the agent and CI reporters."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


class Finding(BaseModel):
    """One problem at a place. ``path`` is relative to its addons root."""

    source: str = Field(description="Which checker said it: pylint, flake8, oca-hooks, static, odoo")
    code: str = Field(description="The checker's code, e.g. W8150, E501, missing-access-rule")
    symbol: str = Field(default="", description="The checker's readable name for the code")
    severity: Severity = "error"
    module: str = Field(default="", description="The addon the finding belongs to")
    path: str = Field(default="", description="File relative to its addons root")
    line: int | None = None
    column: int | None = None
    message: str
    hint: str = Field(default="", description="How to fix it")
    kind: str = Field(default="", description="Category for Odoo run findings (view validation...)")
    xml_id: str = ""
    model: str = ""
    field: str = ""
    traceback: str = Field(default="", description="Trimmed traceback, the addon's frames first")

    def rule(self) -> str:
        """The code, then the readable name when it says something more (``W8150 missing-readme``)."""
        return f"{self.code} {self.symbol}" if self.symbol and self.symbol != self.code else self.code

    def location(self) -> str:
        where = self.path or self.module or "?"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Stable order for reports and pinned tests: module, path, line, column, code."""
    return sorted(
        findings,
        key=lambda f: (f.module, f.path, f.line or 0, f.column or 0, f.code, f.message),
    )
