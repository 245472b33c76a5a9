"""Folders a turn created, so that undo can remove them again once they are empty.

The checkpoint store restores files; a folder the agent created for a new file would otherwise
survive the undo as an empty leftover. Kept next to the store as ``new_dirs.json``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from odoo_tools.files import atomic_write_bytes

FILE_NAME = "new_dirs.json"


def missing_folders(path: Path, root: Path) -> list[Path]:
    """Folders between ``root`` and ``path`` (the path's parent and up) that do not exist yet."""
    missing = []
    for folder in path.parents:
        if folder == root or not folder.is_relative_to(root) or folder.exists():
            break
        missing.append(folder)
    return missing


def remember(state_dir: Path, turn_id: str, folders: list[Path]) -> None:
    if not folders:
        return
    known = _load(state_dir)
    mine = known.setdefault(turn_id, [])
    mine += [str(f) for f in folders if str(f) not in mine]
    atomic_write_bytes(state_dir / FILE_NAME, json.dumps(known, indent=1).encode("utf-8"))


def remove_empty(state_dir: Path, turn_id: str) -> list[Path]:
    """After an undo: remove the turn's new folders that are empty now, deepest first."""
    removed = []
    for name in sorted(_load(state_dir).get(turn_id, []), key=lambda p: p.count(os.sep), reverse=True):
        folder = Path(name)
        try:
            folder.rmdir()  # only ever succeeds on an empty folder: nothing else can be lost
        except OSError:
            continue
        removed.append(folder)
    return removed


def _load(state_dir: Path) -> dict[str, list[str]]:
    path = state_dir / FILE_NAME
    if not path.exists():
        return {}
    data: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return data
