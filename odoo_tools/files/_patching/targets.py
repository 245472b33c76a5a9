"""Which files a patch section acts on, and how: the one rule both ``apply_patch`` and the callers
that judge a patch before it runs (approvals, protected files) follow, so they cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from odoo_tools.files._patching.parser import FilePatch, parse_patch

Action = Literal["create", "delete", "modify", "rename"]


def action_of(item: FilePatch) -> Action:
    """``create`` (from /dev/null), ``delete`` (to /dev/null), ``rename`` (git, two names) or ``modify``.

    A plain ``diff -u old new`` names two versions of one file (``x.py.orig``/``x.py``,
    ``dir1/x``/``dir2/x``): that is a change of one file, never a rename."""
    if item.old_path is None:
        return "create"
    if item.new_path is None:
        return "delete"
    if item.git and item.old_path != item.new_path:
        return "rename"
    return "modify"


def candidates(path: str, git: bool) -> list[str]:
    """The tree paths an existing file named ``path`` may be, in the order they are tried: a plain
    diff's path also without its first folder (``diff -u dir1/x dir2/x`` carries one leading folder
    the tree does not have); git's a/ b/ prefixes are already gone."""
    parts = path.split("/", 1)
    return [path] if git or len(parts) == 1 else [path, parts[1]]


@dataclass(frozen=True)
class PatchTargets:
    """Every tree path a patch may write, delete or move (before it is resolved against a tree)."""

    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    moved: tuple[tuple[str, str], ...] = ()


def patch_targets(patch: str) -> PatchTargets:
    """What applying ``patch`` may change. Raises InvalidInput for a malformed patch, as
    ``apply_patch`` would."""
    written: dict[str, None] = {}
    deleted: dict[str, None] = {}
    moved: list[tuple[str, str]] = []
    for item in parse_patch(patch):
        old, new = item.old_path, item.new_path
        action = action_of(item)
        if action == "create" and new is not None:
            written.setdefault(new)  # a new file is created exactly where named
        elif action == "delete" and old is not None:
            deleted.update(dict.fromkeys(candidates(old, item.git)))
        elif action == "rename" and old is not None and new is not None:
            deleted.setdefault(old)
            written.setdefault(new)
            moved.append((old, new))
        elif old is not None and new is not None:  # modify: either name may be the file
            written.update(dict.fromkeys(candidates(new, item.git) + candidates(old, item.git)))
    return PatchTargets(written=tuple(written), deleted=tuple(deleted), moved=tuple(moved))
