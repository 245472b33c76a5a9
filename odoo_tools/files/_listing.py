"""list_directory, search_files (glob on names) and file_info."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from datetime import datetime, timezone
from itertools import islice
from pathlib import Path

from odoo_tools.errors import InvalidInput
from odoo_tools.files._globs import compile_glob
from odoo_tools.files._models import DirEntry, FileInfoResult, ListDirectoryResult, SearchFilesResult
from odoo_tools.files._textio import count_lines, decode_utf8, read_regular_file
from odoo_tools.files._walking import Found, StopCheck, keep_going, walk
from odoo_tools.workspace import Resolved, Workspace

MAX_ENTRIES = 2000
MAX_SEARCH_RESULTS = 1000
INFO_TEXT_LIMIT = 20 * 1024 * 1024  # binary / line count only for files up to this size


def list_directory(
    ws: Workspace,
    path: str = ".",
    *,
    depth: int = 1,
    exclude: Sequence[str] = (),
    tree: bool = False,
    max_entries: int = MAX_ENTRIES,
) -> ListDirectoryResult:
    """Entries of a folder down to ``depth`` levels (0 = unlimited). "." lists the writable roots."""
    if depth < 0:
        raise InvalidInput(f"depth must be >= 0, got {depth}.", "Use 1 for direct children, 0 for all.")
    folders = _folders(ws, path)
    found = islice(_walk_all(folders, depth or None, exclude), max_entries + 1)
    entries = [DirEntry(path=f.rel, kind=f.kind, size=f.size, depth=f.depth) for f in found]
    truncated = len(entries) > max_entries
    entries = entries[:max_entries]
    notes = []
    if truncated:
        notes.append(f"Only the first {max_entries} entries are shown; list a subfolder or lower depth.")
    if is_top(path) and any(r.readonly for r in ws.roots):
        notes.append(READONLY_NOTE)
    shown = "." if is_top(path) else folders[0].rel
    return ListDirectoryResult(
        path=shown,
        entries=entries,
        tree=_tree(entries) if tree else None,
        truncated=truncated,
        note=" ".join(notes) or None,
    )


READONLY_NOTE = (
    "The read-only Odoo source is not part of '.'; name one of its modules (e.g. 'sale') "
    "or its absolute path to look inside it."
)


def is_top(path: str) -> bool:
    """'.' stands for the writable addons roots together (the project's own code)."""
    return path.strip() in (".", "./")


def _folders(ws: Workspace, path: str) -> list[Resolved]:
    if is_top(path):
        return [ws.resolve(str(root)) for root in ws.writable_roots]
    target = ws.resolve(path)
    if not target.path.is_dir():
        raise InvalidInput(f"{target.rel!r} is a file, not a folder.", "Use file_info or read_file on it.")
    return [target]


def entries_under(ws: Workspace, path: str, depth: int | None, exclude: Sequence[str]) -> Iterator[Found]:
    return _walk_all(_folders(ws, path), depth, exclude)


def _walk_all(folders: list[Resolved], depth: int | None, exclude: Sequence[str]) -> Iterator[Found]:
    for folder in folders:
        yield from walk(folder.path, folder.rel, max_depth=depth, exclude=exclude)


def _tree(entries: list[DirEntry]) -> str:
    lines = []
    for entry in entries:
        name = entry.path.rsplit("/", 1)[-1] + ("/" if entry.kind == "folder" else "")
        size = f"  ({entry.size} B)" if entry.size is not None else ""
        lines.append("  " * (entry.depth - 1) + name + size)
    return "\n".join(lines)


def search_files(
    ws: Workspace,
    pattern: str,
    path: str = ".",
    *,
    exclude: Sequence[str] = (),
    max_results: int = MAX_SEARCH_RESULTS,
    stop: StopCheck = keep_going,
) -> SearchFilesResult:
    """Paths whose name (or, for patterns with '/', relative path) matches the glob ``pattern``."""
    if not pattern.strip():
        raise InvalidInput("Empty pattern.", "Give a glob such as '*.xml' or 'models/**/*.py'.")
    matches: list[str] = []
    truncated = False
    compile_glob(pattern)  # a bad glob fails here, before any walking
    for found in entries_under(ws, path, None, exclude):
        stop()
        if found.matches(pattern):
            if len(matches) == max_results:
                truncated = True
                break
            matches.append(found.rel + ("/" if found.kind == "folder" else ""))
    note = f"Stopped at {max_results} matches; narrow the pattern or the folder." if truncated else None
    return SearchFilesResult(pattern=pattern, matches=matches, truncated=truncated, note=note)


def file_info(ws: Workspace, path: str) -> FileInfoResult:
    """Kind, size, time, mode; for text files also the line count."""
    target = ws.resolve(path)
    st = os.stat(target.path)
    is_dir = stat.S_ISDIR(st.st_mode)
    binary, lines = None, None
    if not is_dir and st.st_size <= INFO_TEXT_LIMIT:
        text = decode_utf8(read_regular_file(target.path, target.rel))
        binary = text is None
        lines = None if text is None else count_lines(text)
    return FileInfoResult(
        path=target.rel,
        kind="folder" if is_dir else "file",
        size=st.st_size,
        modified=datetime.fromtimestamp(st.st_mtime, tz=timezone.utc).isoformat(timespec="seconds"),
        mode=oct(stat.S_IMODE(st.st_mode)),
        binary=binary,
        lines=lines,
        readonly=target.root.readonly or not _writable(target.path, is_dir),
        root=str(target.root.path),
    )


def _writable(path: Path, is_dir: bool) -> bool:
    """Whether the system lets us write there: a folder's entries, or a file, which our writes
    replace (a new file renamed over it), so its folder must take new entries too."""
    if is_dir:
        return os.access(path, os.W_OK | os.X_OK)
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)
