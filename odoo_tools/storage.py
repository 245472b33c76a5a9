"""One way to store: atomic file writes (durable or not), JSON files, and one bounded cache of
file digests.

A write goes to a temporary file in the target's own folder (a unique name, so two writers never
share one), then replaces the target in one rename: readers see the old bytes or the new ones,
never half a file. A durable write also fsyncs the file and its folder, so the new bytes survive
a power cut; cache writes skip that (losing one only costs time). The temporary file is removed
on any failure. Its name carries our process id, so a start-up sweep can tell a file left by a
killed process (``stale_temp``) from one another live process is writing right now.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Generic, TypeVar

import platformdirs
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


# -- private folders ----------------------------------------------------------------------------


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


# -- reading ------------------------------------------------------------------------------------

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


# -- digests -----------------------------------------------------------------------------------

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
