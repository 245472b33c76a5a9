"""One lock per resolved path, process-wide, so concurrent writers to one file lose no update.

Tools run in worker threads; every write, edit, patch, move and delete takes the locks of the
paths it touches, and read-modify-write operations hold them from the read to the write.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

_registry_guard = threading.Lock()
_locks: dict[Path, threading.Lock] = {}


def _lock_for(path: Path) -> threading.Lock:
    with _registry_guard:
        lock = _locks.get(path)
        if lock is None:
            lock = _locks[path] = threading.Lock()
        return lock


@contextmanager
def path_locks(*paths: Path) -> Iterator[None]:
    """Hold the locks of all ``paths`` (taken in sorted order, so two callers never deadlock)."""
    with ExitStack() as stack:
        for path in sorted(set(paths), key=str):
            stack.enter_context(_lock_for(path))
        yield
