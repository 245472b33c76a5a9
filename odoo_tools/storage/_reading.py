"""Reading a file whole within a size cap, and private (0600) cache files."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from odoo_tools.storage._atomic import atomic_write_bytes

# The largest source file (Python, XML, CSV, manifest) the index and the static checks read
# whole. Odoo's biggest are a few MiB; a 2 GiB file once took find_model to 2.1 GB of memory.
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def read_capped(
    path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES, *, follow_links: bool = True
) -> bytes | None:
    """The file's bytes, or None when it holds more than ``cap`` (never more is read).

    The one way to read a file of a module, of a repository or of an Odoo source (every such
    file may be hostile): a pipe, socket or device raises ``OSError`` instead of blocking the
    reader (it is opened non-blocking and must be a regular file), and a file over the cap is
    judged by its size before a byte is read. ``follow_links=False``: a link raises ``OSError``."""
    nofollow = 0 if follow_links else os.O_NOFOLLOW
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | nofollow)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, socket or device)", os.fspath(path))
        if info.st_size > cap:
            return None
        data = handle.read(cap + 1)
    return None if len(data) > cap else data


def read_private(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> bytes | None:
    """A cache file's bytes when it is a regular file of this user that no one else may read or
    write (0600 or narrower), not a link and within ``cap``; None otherwise or when it cannot be
    read. What a cache holds decides what is reported or written: a file another account planted
    (before its folder was narrowed to ours, or in a folder left open) is never believed."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        if info.st_size > cap:
            return None
        try:
            data = handle.read(cap + 1)
        except OSError:
            return None
    return None if len(data) > cap else data


def write_private(path: Path, data: bytes) -> None:
    """``data`` as ``path``, 0600, atomically (not durable: a cache). A file another account left
    there is removed first: replacing it would keep its owner when we may chown (root)."""
    if os.path.lexists(path) and os.lstat(path).st_uid != os.geteuid():
        path.unlink()
    atomic_write_bytes(path, data, durable=False, mode=0o600)


def read_capped_text(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> str | None:
    """``read_capped`` decoded as UTF-8 (undecodable bytes replaced); None when over the cap or
    unreadable (a missing file, a pipe...)."""
    try:
        data = read_capped(path, cap)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace") if data is not None else None


def capped_lines(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> list[str]:
    """The lines of a source file (to find a finding's line in it): [] when it cannot be read
    within the cap."""
    text = read_capped_text(path, cap)
    return text.splitlines() if text is not None else []
