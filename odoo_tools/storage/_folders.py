"""The data and cache folders, and folders only this user can use."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

import platformdirs


def default_data_dir() -> Path:
    """The user data folder (sessions, trust, the HTTP token, journal records) unless one is given."""
    return Path(platformdirs.user_data_dir("assista-odoo"))


CACHE_DIR_VARIABLE = "ASSISTA_CACHE_DIR"
_chosen_cache_dir: Path | None = None


def use_cache_dir(path: Path | None) -> None:
    """The cache folder the settings chose (a trusted project file's ``cache_dir``) for everything
    of this process that keeps a cache: the locks, migrate's readings, the linters' tools."""
    global _chosen_cache_dir
    _chosen_cache_dir = path


def shared_cache_dir() -> Path:
    """The platform's user cache folder, the same for every process of the user whatever its
    settings: where the lock files must be for two servers to see each other's locks."""
    return Path(platformdirs.user_cache_dir("assista-odoo"))


def default_cache_dir() -> Path:
    """The one cache root: the settings' ``cache_dir`` when one was chosen, else
    ``ASSISTA_CACHE_DIR``, else the platform's user cache folder. Each use checks it is private
    (``private_folder``) before anything is kept or read there."""
    if _chosen_cache_dir is not None:
        return _chosen_cache_dir
    chosen = os.environ.get(CACHE_DIR_VARIABLE, "")
    if os.path.isabs(chosen):
        return Path(chosen)
    return Path(platformdirs.user_cache_dir("assista-odoo"))


def user_private_folder(name: str) -> Path:
    """A scratch folder ``name`` only this user can use, under the user's own runtime folder
    (``XDG_RUNTIME_DIR``) or else cache folder: never in a shared folder such as /tmp, where
    another account could create the name first (a file, or a link to its own folder)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    bases = [Path(runtime) / "assista-odoo"] if os.path.isabs(runtime) else []
    bases.append(default_cache_dir())
    failures = []
    for base in bases:
        try:
            return private_folder(private_folder(base) / name)
        except OSError as exc:
            failures.append(str(exc))
    raise NotPrivate(errno.EACCES, "no private folder for " + name + ": " + "; ".join(failures))


class NotPrivate(OSError):
    """A folder meant for this user alone is a link, another account's, or open to others."""


def private_folder(path: Path) -> Path:
    """``path`` as a folder only this user can use: created 0700 when missing (parents as usual);
    an existing one must be a real folder (not a link) of ours, and is narrowed to 0700.

    Checked on the folder itself, opened without following a link, so another account that
    created the name first (in a shared folder such as /tmp) gets nothing: this raises instead.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:  # a link (ELOOP) or a file (ENOTDIR)
        raise NotPrivate(exc.errno, f"{path} is not a folder of ours ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise NotPrivate(f"{path} belongs to another account (uid {info.st_uid})")
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.fchmod(fd, 0o700)
    finally:
        os.close(fd)
    return path
