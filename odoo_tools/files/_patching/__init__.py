"""Unified diffs: parse them, validate every hunk, then apply all files or none."""

from odoo_tools.files._patching.applying import apply_patch
from odoo_tools.files._patching.parser import FilePatch, Hunk, parse_patch
from odoo_tools.files._patching.targets import PatchTargets, patch_targets

__all__ = ["FilePatch", "Hunk", "PatchTargets", "apply_patch", "parse_patch", "patch_targets"]
