"""Parse Odoo's own log output into findings (at the addon's file:line), test results and progress.

Public API:
    parse_odoo_log(text, roots=..., modules=...) -> OdooLogReport
    ProgressTracker().feed(line) -> (k, N) | None
"""

from __future__ import annotations

from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._manifest_lines import manifest_entry_line
from odoo_tools.odoo_log._parser import OdooLogReport, parse_odoo_log
from odoo_tools.odoo_log._progress import ProgressTracker
from odoo_tools.odoo_log._testrun import TestCounts, TestResult, TestStatus

__all__ = [
    "OdooLogReport",
    "ProgressTracker",
    "TestCounts",
    "TestResult",
    "TestStatus",
    "kinds",
    "manifest_entry_line",
    "parse_odoo_log",
]
