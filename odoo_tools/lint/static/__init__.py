"""Static cross-file checks of our own (no database), built on the code index."""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding

if TYPE_CHECKING:
    from odoo_tools.lint.project import LintProject


def static_findings(project: LintProject, addon: Addon) -> list[Finding]:
    """Every static finding for ``addon``."""
    return []
