"""Unified diffs: parse them, validate every hunk, then apply all files or none."""

from odoo_tools.files.patching.applying import apply_patch
from odoo_tools.files.patching.parser import FilePatch, Hunk, parse_patch

__all__ = ["FilePatch", "Hunk", "apply_patch", "parse_patch"]
