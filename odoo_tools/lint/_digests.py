"""File digests that outlive the process, so a fresh ``check`` re-reads only what changed.

``StoredDigests`` is a ``FileDigests`` that starts from the digests a previous run saved (one
JSON file per set of addons roots, under ``<cache_dir>/lint/``, see ``_digest_store``) and trusts
an entry while the file's (mtime_ns, size) is unchanged, like the code index does. A file
modified within the last seconds is saved without its digest (it could change again within the
same mtime tick and keep its size), so it is re-read by the next run. JSON only: a cache file
must never be able to run code. A stored digest stands for a file's content in the findings
cache's keys: it is read and written only in a folder of this user's alone, from a 0600 file of
this user (``LintCache``'s rule), so no other account can make a changed file look unchanged.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.lint._digest_store import Entry, parse_store, store_path, write_store
from odoo_tools.storage import UNREADABLE, FileDigests, private_folder, read_private, write_private

RACY_SECONDS = 2  # younger files are re-read next time rather than trusted by their stat


class StoredDigests(FileDigests):
    """``FileDigests`` loaded from and saved to ``<cache_dir>/lint/files-<roots>.json``."""

    def __init__(self, cache_dir: Path | None, roots: Sequence[Path]) -> None:
        super().__init__()
        self.path = store_path(cache_dir, roots) if cache_dir is not None else None
        self._stored = self._load()
        self._seen: dict[str, Entry] = {}
        self._lock = threading.Lock()
        self.read_count = 0  # files whose content was read this run (tests use it)

    def file_digest(self, path: str | os.PathLike[str], st: os.stat_result | None = None) -> str:
        name = os.fspath(path)
        try:
            st = os.stat(name) if st is None else st
        except OSError:
            return UNREADABLE
        known = self._stored.get(name)
        if known is not None and known[2] and known[:2] == (st.st_mtime_ns, st.st_size):
            digest = known[2]
        else:
            digest = super().file_digest(name, st)
            self.read_count += 1
        if digest != UNREADABLE:
            with self._lock:
                self._seen[name] = (st.st_mtime_ns, st.st_size, digest)
        return digest

    def save(self) -> None:
        """Keep the digests of the files seen this run; a file younger than ``RACY_SECONDS``
        keeps only its stat (the next run re-reads it, and can tell whether it changed again)."""
        if self.path is None:
            return
        settled = time.time_ns() - RACY_SECONDS * 1_000_000_000
        with self._lock:
            entries = {
                name: entry if entry[0] < settled else (entry[0], entry[1], "")
                for name, entry in self._seen.items()
            }
        if entries == self._stored:
            return
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
            if self._private():
                write_private(self.path, write_store(entries).encode())

    def _load(self) -> dict[str, Entry]:
        data = read_private(self.path) if self.path is not None and self._private() else None
        return parse_store(data) if data is not None else {}

    def _private(self) -> bool:
        """The store's folder is this user's alone (created 0700 when missing)."""
        if self.path is None:
            return False
        try:
            private_folder(private_folder(self.path.parent.parent) / self.path.parent.name)
        except OSError:
            return False
        return True
