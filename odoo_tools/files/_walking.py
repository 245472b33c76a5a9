"""Walk folders inside the sandbox: never follow symlinks, skip noise folders, honour excludes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.files._globs import glob_matches
from odoo_tools.files._models import EntryKind

DEFAULT_SKIPPED = (".git", "__pycache__", "node_modules")
# Called between pieces of work; raises to stop it (e.g. the MCP call was cancelled).
StopCheck = Callable[[], None]


def keep_going() -> None:
    """The StopCheck that never stops."""


@dataclass(frozen=True)
class Found:
    path: Path  # absolute, not resolved (a symlink stays a symlink)
    rel: str  # relative to the walked root, POSIX
    kind: EntryKind
    depth: int
    size: int | None
    sub: str = ""  # relative to the walked folder (what globs with a '/' are matched against)

    def matches(self, pattern: str) -> bool:
        """A glob with a '/' may be written from the walked folder or from the root."""
        return glob_matches(pattern, self.sub) or ("/" in pattern and glob_matches(pattern, self.rel))


def walk(
    top: Path, rel_top: str, *, max_depth: int | None = None, exclude: Sequence[str] = ()
) -> Iterator[Found]:
    """Entries under ``top`` (sorted, folders descended depth-first); symlinks are listed, not followed."""
    skipped = (*DEFAULT_SKIPPED, *exclude)
    yield from _walk(top, rel_top, "", 1, max_depth, skipped)


def _walk(
    folder: Path, rel: str, sub: str, depth: int, max_depth: int | None, skipped: Sequence[str]
) -> Iterator[Found]:
    try:
        with os.scandir(folder) as handle:
            entries = sorted(handle, key=lambda e: e.name)
    except OSError:
        return  # unreadable folder: nothing to list, the walk goes on
    for entry in entries:
        entry_rel = entry.name if rel in ("", ".") else f"{rel}/{entry.name}"
        entry_sub = entry.name if not sub else f"{sub}/{entry.name}"
        found = _found(entry, entry_rel, entry_sub, depth)
        if any(found.matches(p) for p in skipped):
            continue
        yield found
        if found.kind == "folder" and (max_depth is None or depth < max_depth):
            yield from _walk(Path(entry.path), entry_rel, entry_sub, depth + 1, max_depth, skipped)


def _found(entry: os.DirEntry[str], rel: str, sub: str, depth: int) -> Found:
    kind: EntryKind
    size = None
    if entry.is_symlink():
        kind = "symlink"
    elif entry.is_dir(follow_symlinks=False):
        kind = "folder"
    elif entry.is_file(follow_symlinks=False):
        kind = "file"
        try:
            size = entry.stat(follow_symlinks=False).st_size
        except OSError:
            size = None
    else:
        kind = "other"
    return Found(Path(entry.path), rel, kind, depth, size, sub)
