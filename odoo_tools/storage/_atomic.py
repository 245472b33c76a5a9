"""Atomic file writes (durable or not) and JSON files.

A write goes to a temporary file in the target's own folder (a unique name, so two writers never
share one), then replaces the target in one rename: readers see the old bytes or the new ones,
never half a file. A durable write also fsyncs the file and its folder, so the new bytes survive
a power cut; cache writes skip that (losing one only costs time). The temporary file is removed
on any failure. Its name carries our process id, so a start-up sweep can tell a file left by a
killed process (``stale_temp``) from one another live process is writing right now.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any

from pydantic import BaseModel

_TEMP_NAME = re.compile(r"^\..+\.(?P<pid>\d+)-[0-9a-f]{12}\.tmp$")
# Earlier versions named temporary files without the writer's pid.
LEGACY_TEMP_NAME = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")
JOURNAL_PREFIX = ".assista-journal-"
JOURNAL_NAME = re.compile(r"^\.assista-journal-(?P<pid>\d+)-[0-9a-f]{12}\.json$")


def reserved_name(name: str) -> bool:
    """``name`` is one only our own writes may create: a journal or a staged temporary file.

    Compared without case, as a case-insensitive filesystem would: a model or a repository that
    could create such a file could have it replayed (journal) or renamed into place (temp file).
    """
    low = name.lower()
    return low.startswith(JOURNAL_PREFIX) or bool(_TEMP_NAME.match(low) or LEGACY_TEMP_NAME.match(low))


def temp_prefix(path: Path) -> str:
    """How the names of ``path``'s temporary files start: ``.<name>.``."""
    # Shortened so a 255-byte file name still leaves room for the temporary file's name.
    return "." + path.name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "ignore") + "."


def temp_path_for(path: Path) -> Path:
    """A fresh hidden name beside ``path``: ``.<name>.<pid>-<random>.tmp``."""
    return path.parent / f"{temp_prefix(path)}{os.getpid()}-{secrets.token_hex(6)}.tmp"


def stale_temp(name: str) -> bool:
    """``name`` is one of our temporary files and the process that wrote it is gone."""
    found = _TEMP_NAME.match(name)
    return found is not None and not writer_alive(int(found["pid"]))


def writer_alive(pid: int) -> bool:
    """Process ``pid`` still runs (ours counts as alive: a start never knows its own writes)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but is not ours (EPERM)
        return True
    return True


def stage_bytes(path: Path, data: bytes, *, durable: bool = True, mode: int | None = None) -> Path:
    """Write ``data`` to a new temporary file beside ``path`` and return its name.

    The file gets ``path``'s permission bits and owner when ``path`` exists (else ``mode``, else
    0o666 minus the umask, as any editor creates files: the umask is never read or changed, which
    would race other threads). It is created with those bits (never wider: a private file is
    never readable by others, even for a moment), never through a link, and only then written.
    Nothing is left behind when this raises.
    """
    existing = _stat_or_none(path)
    if mode is None and existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    tmp = temp_path_for(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o666 if mode is None else mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as handle:
            if existing is not None:
                _keep_owner(handle.fileno(), existing)
            if mode is not None:  # after chown, which clears set-id bits; the umask narrowed it
                os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` atomically (see the module docstring)."""
    tmp = stage_bytes(path, data, durable=durable, mode=mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, durable: bool = False) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), durable=durable)


def atomic_write_json(path: Path, value: Any, *, durable: bool = False, indent: int | None = None) -> None:
    """``value`` (a pydantic model or plain JSON data) as a JSON file, written atomically."""
    if isinstance(value, BaseModel):
        text = value.model_dump_json(indent=indent)
    else:
        text = json.dumps(value, indent=indent)
    atomic_write_text(path, text, durable=durable)


def fsync_dir(folder: Path) -> None:
    """Make renames in ``folder`` durable; some filesystems refuse fsync on folders, which is fine."""
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _keep_owner(fd: int, existing: os.stat_result) -> None:
    # The replacement is a new inode owned by us; give it the old owner back when allowed.
    if (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(OSError):
            os.fchown(fd, existing.st_uid, existing.st_gid)
