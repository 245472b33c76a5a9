"""One lock per resolved path, across threads and processes, so concurrent writers lose no update.

Every write, edit, patch, move and delete takes the locks of the paths it touches, and
read-modify-write operations hold them from the read to the write. Two stdio servers (two hosts,
or the agent and an editor's server) are two processes, so a thread lock alone is not enough: each
path also has a lock file, ``flock``-ed while held, in a private folder of the user outside every
addons tree (``lock_folder()``; nothing is ever created in the user's tree). The thread lock comes
first, so threads of one process queue in memory and only one of them waits on the file.

A lock lives only while someone holds or waits for it: the registry entry is dropped with its last
user, and the lock file is unlinked by its holder before release (a process that then wins the old
file sees it is no longer the one at that name and takes the new one), so neither grows with the
number of paths a long-lived server touches.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from odoo_tools.errors import ConfigError, EditConflict
from odoo_tools.storage import private_folder, shared_cache_dir

# Another process may hold a path for at most a write; waiting longer means it hangs.
WAIT_SECONDS = 60.0
_POLL_SECONDS = 0.005

_registry_guard = threading.Lock()
_locks: dict[Path, tuple[threading.Lock, int]] = {}  # path -> (lock, holders and waiters)


def registered() -> int:
    """How many paths have a lock right now (for tests and diagnostics)."""
    with _registry_guard:
        return len(_locks)


def lock_folder() -> Path:
    """The folder of lock files: ``locks`` in this user's cache folder, created 0700, never a link
    nor another account's (``private_folder``). Not in the shared /tmp, where another account could
    create the name first and so make every write fail. Not in the runtime folder either, unlike the
    linters' scratch files: XDG_RUNTIME_DIR is set for a desktop or systemd login and unset in many
    ssh or cron shells, so an editor's server and an agent started from a terminal would lock in two
    places and lose updates; the cache folder is the same for every process of the user."""
    try:
        return private_folder(private_folder(shared_cache_dir()) / "locks")
    except OSError as exc:
        raise ConfigError(
            f"No private folder of this user for the lock files ({exc}), so writes cannot "
            "be coordinated with other processes. Nothing was written.",
            "Make the cache folder (XDG_CACHE_HOME, ~/.cache) a folder of yours.",
        ) from exc


def lock_file(path: Path) -> Path:
    """The lock file of ``path`` (it exists only while a process holds or waits for the lock)."""
    return lock_folder() / (hashlib.sha256(os.fsencode(path)).hexdigest()[:32] + ".lock")


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold the lock file of ``path`` (exclusive ``flock``) against every other process."""
    name = lock_file(path)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            if os.fstat(fd).st_uid != os.geteuid():
                # Another account's, made before the folder was narrowed to ours (left open under
                # umask 0): its maker could hold it for ever and so block every write of the path.
                os.unlink(name)
                current = False
            else:
                _wait_for(fd, path, deadline)
                current = _is_current(fd, name)
        except BaseException:
            os.close(fd)
            raise
        if current:
            break
        os.close(fd)  # the holder before us removed this file: lock the one now at that name
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)  # before the release: whoever waits on this file will retry
        os.close(fd)


def _wait_for(fd: int, path: Path, deadline: float) -> None:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise EditConflict(
                    f"Another process has held {path} for over {WAIT_SECONDS:.0f} s. Nothing was written.",
                    "Try again when it is done (is another assista-odoo server or agent stuck?).",
                ) from None
            time.sleep(_POLL_SECONDS)


def _is_current(fd: int, name: Path) -> bool:
    try:
        on_disk = os.stat(name, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


@contextmanager
def _held(path: Path) -> Iterator[None]:
    with _registry_guard:
        lock, users = _locks.get(path, (threading.Lock(), 0))
        _locks[path] = (lock, users + 1)
    try:
        with lock, _file_lock(path):
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
