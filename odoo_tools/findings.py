"""The one findings shape shared by lint, static checks, Odoo runs, the agent and CI reporters."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field, field_validator

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}
# What a message or hint shows of the names it quotes: a module's file is hostile, and a 5 MB field
# name in an xpath was printed whole in every report format. Odoo's longest names are far shorter.
MAX_WORD = 200
MAX_TEXT = 4000
ELLIPSIS = "\u2026"
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")


def capped(text: str) -> str:
    """``text`` with each word (a run without spaces) over MAX_WORD characters, and the whole
    over MAX_TEXT, cut with an ellipsis."""
    if len(text) <= MAX_WORD:
        return text
    text = _LONG_WORD.sub(lambda m: m.group(0)[:MAX_WORD] + ELLIPSIS, text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + ELLIPSIS


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

    @field_validator("message", "hint")
    @classmethod
    def _capped(cls, value: str) -> str:
        return capped(value)

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
