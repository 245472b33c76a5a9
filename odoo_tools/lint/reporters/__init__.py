"""Report formats for the CI gate: text, json, junit, sarif, github (workflow annotations).

Every reporter takes the same ``Report`` and returns text. ``Report.display_path`` turns a
finding's root-relative path into the path a CI system shows (relative to the working tree).
"""

from __future__ import annotations

from collections.abc import Callable

from odoo_tools.lint.reporters import _github as github
from odoo_tools.lint.reporters import _json_report as json_report
from odoo_tools.lint.reporters import _junit as junit
from odoo_tools.lint.reporters import _sarif as sarif
from odoo_tools.lint.reporters import _text as text
from odoo_tools.lint.reporters._base import INCOMPLETE, Report

FORMATS: dict[str, Callable[[Report], str]] = {
    "text": text.render,
    "json": json_report.render,
    "junit": junit.render,
    "sarif": sarif.render,
    "github": github.render,
}


def render(fmt: str, report: Report) -> str:
    return FORMATS[fmt](report)


__all__ = ["FORMATS", "INCOMPLETE", "Report", "render"]
