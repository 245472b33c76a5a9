"""What every producer of ``assista-odoo check`` gets and offers (``check`` runs them, ``odoo_check``
is one): apart from both so neither imports the other."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Protocol

from assista_mcp.cli.check_report import Advance
from assista_mcp.config.settings import Settings
from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint import LintProject


@dataclass
class CheckContext:
    """What every producer gets: parsed flags, settings, the project and the chosen modules."""

    args: argparse.Namespace
    settings: Settings
    project: LintProject
    addons: list[Addon]
    advance: Advance
    checks: list[str] = field(default_factory=list)  # names reported (JUnit cases)
    tools: list[str] = field(default_factory=list)  # the tools that ran (SARIF runs): ruff or flake8...
    missing_tools: list[str] = field(default_factory=list)  # linters that could not run, with the fix


class Producer(Protocol):
    def add_flags(self, parser: argparse.ArgumentParser) -> None: ...

    def units(self, args: argparse.Namespace, addons: list[Addon]) -> int:
        """How many progress steps ``produce`` will report (0 when disabled)."""
        ...

    def produce(self, ctx: CheckContext) -> list[Finding]: ...
