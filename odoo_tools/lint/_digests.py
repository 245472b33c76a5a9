"""File digests that outlive the process, so a fresh ``check`` re-reads only what changed.

``StoredDigests`` is a ``FileDigests`` that starts from the digests a previous run saved (one
JSON file per set of addons roots, under ``<cache_dir>/lint/``) and trusts an entry while the
file's (mtime_ns, size) is unchanged, like the code index does. A file modified within the last
seconds is never saved (it could change again within the same mtime tick and keep its size), so
it is re-read by the next run. JSON only: a cache file must never be able to run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.storage import UNREADABLE, FileDigests, atomic_write_text

SCHEMA = "file-digests-1"
RACY_SECONDS = 2  # younger files are re-read next time rather than trusted by their stat


class StoredDigests(FileDigests):
    """``FileDigests`` loaded from and saved to ``<cache_dir>/lint/files-<roots>.json``."""

    def __init__(self, cache_dir: Path | None, roots: Sequence[Path]) -> None:
        super().__init__()
        self.path = _store_path(cache_dir, roots) if cache_dir is not None else None
        self._stored = self._load()
        self._seen: dict[str, tuple[int, int, str]] = {}
        self._lock = threading.Lock()
        self.read_count = 0  # files whose content was read this run (tests use it)

    def file_digest(self, path: str | os.PathLike[str], st: os.stat_result | None = None) -> str:
        name = os.fspath(path)
        try:
            st = os.stat(name) if st is None else st
        except OSError:
            return UNREADABLE
        known = self._stored.get(name)
        if known is not None and known[:2] == (st.st_mtime_ns, st.st_size):
            digest = known[2]
        else:
            digest = super().file_digest(name, st)
            self.read_count += 1
        if digest != UNREADABLE:
            with self._lock:
                self._seen[name] = (st.st_mtime_ns, st.st_size, digest)
        return digest

    def save(self) -> None:
        """Keep the digests of the files seen this run (old enough to be trusted next time)."""
        if self.path is None:
            return
        settled = time.time_ns() - RACY_SECONDS * 1_000_000_000
        with self._lock:
            entries = {name: list(entry) for name, entry in self._seen.items() if entry[0] < settled}
        if entries == {name: list(entry) for name, entry in self._stored.items()}:
            return
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.path, json.dumps({"schema": SCHEMA, "files": entries}))

    def _load(self) -> dict[str, tuple[int, int, str]]:
        if self.path is None:
            return {}
        try:
            raw = json.loads(self.path.read_bytes())
            files = raw["files"] if raw.get("schema") == SCHEMA else {}
            return {
                name: (int(entry[0]), int(entry[1]), str(entry[2]))
                for name, entry in files.items()
                if isinstance(entry, list) and len(entry) == 3
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}  # missing or damaged: every file is read once more


def _store_path(cache_dir: Path, roots: Sequence[Path]) -> Path:
    key = hashlib.sha256("\0".join(sorted(os.path.realpath(r) for r in roots)).encode()).hexdigest()
    return cache_dir / "lint" / f"files-{key[:16]}.json"
