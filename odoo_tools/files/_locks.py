"""One lock per resolved path, process-wide, so concurrent writers to one file lose no update.

Tools run in worker threads; every write, edit, patch, move and delete takes the locks of the
paths it touches, and read-modify-write operations hold them from the read to the write. A lock
lives only while someone holds or waits for it, so the registry stays as small as the work in
flight however many paths a long-lived server touches.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

_registry_guard = threading.Lock()
_locks: dict[Path, tuple[threading.Lock, int]] = {}  # path -> (lock, holders and waiters)


def registered() -> int:
    """How many paths have a lock right now (for tests and diagnostics)."""
    with _registry_guard:
        return len(_locks)


@contextmanager
def _held(path: Path) -> Iterator[None]:
    with _registry_guard:
        lock, users = _locks.get(path, (threading.Lock(), 0))
        _locks[path] = (lock, users + 1)
    try:
        with lock:
            yield
    finally:
        with _registry_guard:
            users = _locks[path][1] - 1
            if users:
                _locks[path] = (lock, users)
            else:
                del _locks[path]


@contextmanager
def path_locks(*paths: Path) -> Iterator[None]:
    """Hold the locks of all ``paths`` (taken in sorted order, so two callers never deadlock)."""
    with ExitStack() as stack:
        for path in sorted(set(paths), key=str):
            stack.enter_context(_held(path))
        yield
