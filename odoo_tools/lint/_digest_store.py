"""The file the digests of a ``check`` run are kept in, and what a next run can tell from it
before importing anything heavy: which kinds of files changed since (so only the linters those
need are started early). Standard library only: read first thing by the command line.

One JSON file per set of addons roots, ``<cache_dir>/lint/files-<roots>.json``:
``{"schema": ..., "files": {path: [mtime_ns, size, digest]}}``; a digest left empty marks a file
modified too recently to be trusted by its stat (re-read next time, yet its stat is known).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

SCHEMA = "file-digests-2"
Entry = tuple[int, int, str]  # mtime_ns, size, digest ("" = to be re-read)
# Which early linter a changed file of each kind may need (any other kind: all of them).
NEEDED_BY_SUFFIX = {".py": ("pylint",), ".xml": ("oca-hooks",), ".csv": ("oca-hooks",)}
NEEDED_BY_SUFFIX |= {".po": ("oca-hooks",), ".pot": ("oca-hooks",)}


def store_path(cache_dir: Path, roots: Sequence[Path]) -> Path:
    key = hashlib.sha256("\0".join(sorted(os.path.realpath(r) for r in roots)).encode()).hexdigest()
    return cache_dir / "lint" / f"files-{key[:16]}.json"


def read_store(path: Path) -> dict[str, Entry]:
    """The entries of ``path``; empty when it is missing, damaged or of another schema."""
    try:
        return parse_store(path.read_bytes())
    except OSError:
        return {}


def parse_store(data: bytes) -> dict[str, Entry]:
    """The entries a store's bytes hold; empty when damaged or of another schema."""
    try:
        raw = json.loads(data)
        files = raw["files"] if raw.get("schema") == SCHEMA else {}
        return {
            name: (int(entry[0]), int(entry[1]), str(entry[2]))
            for name, entry in files.items()
            if isinstance(entry, list) and len(entry) == 3
        }
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}


def write_store(entries: dict[str, Entry]) -> str:
    """The JSON text of a store holding ``entries`` (the caller writes it atomically)."""
    return json.dumps({"schema": SCHEMA, "files": {name: list(entry) for name, entry in entries.items()}})


def linters_for_changes(tools: Iterable[str], cache_dir: Path | None) -> list[str] | None:
    """Of ``tools``, those a file changed since the newest stored run may need; None when there is
    nothing to tell from (no cache, no earlier run). A guess: files created since are not seen."""
    store = _newest_store(cache_dir) if cache_dir is not None else None
    entries = read_store(store) if store is not None else {}
    if not entries:
        return None
    wanted = list(tools)
    needed: set[str] = set()
    for name, (mtime_ns, size, _) in entries.items():
        try:
            st = os.stat(name)
            changed = (st.st_mtime_ns, st.st_size) != (mtime_ns, size)
        except OSError:
            changed = True  # deleted
        if changed:
            needed.update(NEEDED_BY_SUFFIX.get(os.path.splitext(name)[1], wanted))
            if needed >= set(wanted):
                break
    return [tool for tool in wanted if tool in needed]


def _newest_store(cache_dir: Path) -> Path | None:
    try:
        stores = [entry for entry in os.scandir(cache_dir / "lint") if entry.name.startswith("files-")]
        return Path(max(stores, key=lambda entry: entry.stat().st_mtime_ns).path) if stores else None
    except OSError:
        return None
