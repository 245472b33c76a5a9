"""Unified diffs: parse them, validate every hunk, then apply all files or none."""

from odoo_tools.files._patching.applying import apply_patch
from odoo_tools.files._patching.parser import FilePatch, Hunk, parse_patch


def patch_paths(patch: str) -> list[str]:
    """Every path a patch names (old and new sides, git's a/ b/ prefixes removed), in order.

    For callers that act before a patch is applied (checkpoints, approvals). Raises InvalidInput
    for a malformed patch, as apply_patch would.
    """
    seen: dict[str, None] = {}
    for item in parse_patch(patch):
        for path in (item.old_path, item.new_path):
            if path is not None:
                seen.setdefault(path)
    return list(seen)


__all__ = ["FilePatch", "Hunk", "apply_patch", "parse_patch", "patch_paths"]
