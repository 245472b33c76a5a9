"""One content hash, and bounded caches keyed by a file's stat (the file digests among them)."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from odoo_tools.storage._reading import MAX_SOURCE_BYTES

UNREADABLE = "unreadable"
_CHUNK = 1 << 20


def digest_bytes(data: bytes) -> str:
    """The one content hash: blake2b, 128 bits, hex."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _digest_file(path: str) -> str:
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class StatCache(Generic[K, V]):
    """Values computed from a file, kept while its (mtime_ns, size) stay the same.

    Least recently used entries are dropped beyond ``max_entries``, so a long-lived server that
    sees many files (or many renamed ones) keeps a bounded amount. Thread-safe.
    """

    def __init__(self, max_entries: int = 50_000) -> None:
        self.max_entries = max_entries
        self._known: OrderedDict[K, tuple[int, int, V]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._known)

    def get(self, key: K, st: os.stat_result, compute: Callable[[], V]) -> V:
        with self._lock:
            known = self._known.get(key)
            if known is not None and known[:2] == (st.st_mtime_ns, st.st_size):
                self._known.move_to_end(key)
                return known[2]
        value = compute()
        with self._lock:
            self._known[key] = (st.st_mtime_ns, st.st_size, value)
            self._known.move_to_end(key)
            while len(self._known) > self.max_entries:
                self._known.popitem(last=False)
        return value


class FileDigests:
    """``digest_bytes`` of files, re-read only when (mtime_ns, size) changed; bounded (LRU)."""

    def __init__(self, max_entries: int = 50_000) -> None:
        self._cache: StatCache[str, str] = StatCache(max_entries)

    def __len__(self) -> int:
        return len(self._cache)

    def file_digest(self, path: str | os.PathLike[str], st: os.stat_result | None = None) -> str:
        """The file's digest (``UNREADABLE`` when it cannot be read); ``st``: a stat already made."""
        name = os.fspath(path)
        try:
            st = os.stat(name) if st is None else st
            if st.st_size > MAX_SOURCE_BYTES:  # no reader takes it whole: its stat stands for it
                return digest_bytes(f"over the cap:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}".encode())
            return self._cache.get(name, st, lambda: _digest_file(name))
        except OSError:
            return UNREADABLE


# Shared by every caller in this process that does not bring its own.
FILE_DIGESTS = FileDigests()
