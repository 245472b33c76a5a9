"""Incremental indexing: which files changed since last time, and the on-disk cache.

A file is re-read only when its (mtime_ns, size) changed, and re-parsed only when its content
hash changed too; so a refresh with nothing changed costs one ``stat`` per file. The cache is
JSON (never pickle: a cache file must not be able to run code), one folder per set of roots under
``<cache_dir>/index/``, one shard file per module so a change rewrites only its module's shard;
every write is atomic (temp file + rename).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from odoo_tools.addons import Addon, AddonSet
from odoo_tools.index._records import FileData
from odoo_tools.storage import atomic_write_bytes, digest_bytes, private_folder

CACHE_VERSION = 3  # 3: what the ORM-aware checks read (decorator names, opaque classes, env models)
PRUNED_DIRS = frozenset({"static", "__pycache__", "node_modules", "i18n", "i18n_extra"})
KIND_BY_SUFFIX = {".py": "python", ".xml": "xml", ".csv": "csv"}
# Odoo loads a CSV as the model its name spells; others (e.g. chart templates "account.tax-fr.csv",
# read by Python code) hold no xml ids and are left out.
DATA_CSV_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.csv$")


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file the index reads: where it is and what ``stat`` said."""

    path: str  # absolute
    rel: str  # relative to its root
    module: str
    kind: str
    mtime_ns: int
    size: int


@dataclass(frozen=True, slots=True)
class CacheEntry:
    mtime_ns: int
    size: int
    digest: str
    data: FileData


_ENTRIES = TypeAdapter(dict[str, CacheEntry])


def iter_source_files(addons: AddonSet) -> Iterator[SourceFile]:
    """Python, XML and CSV files of every discovered addon (static assets and i18n skipped)."""
    for name in sorted(addons.addons):
        yield from _walk_addon(addons.addons[name])


def _walk_addon(addon: Addon) -> Iterator[SourceFile]:
    root = str(addon.root)
    cut = len(root) + 1
    todo = [str(addon.path)]
    while todo:
        folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                if name not in PRUNED_DIRS:
                    todo.append(entry.path)
                continue
            kind = KIND_BY_SUFFIX.get(os.path.splitext(name)[1])
            if kind is None or not entry.is_file(follow_symlinks=False):
                continue
            if kind == "csv" and not DATA_CSV_NAME.match(name):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            yield SourceFile(entry.path, entry.path[cut:], addon.name, kind, st.st_mtime_ns, st.st_size)


class IndexCache:
    """The on-disk cache for one set of roots (``None`` cache_dir: memory only)."""

    def __init__(self, cache_dir: Path | None, roots: list[Path]) -> None:
        key = digest_bytes("\n".join(str(r) for r in roots).encode("utf-8", "surrogateescape"))
        self.cache_dir = cache_dir
        self.folder: Path | None = cache_dir / "index" / key if cache_dir else None

    def _private(self) -> bool:
        """The cache root, its ``index`` and this folder exist as this user's alone (0700, no
        link): checked on every load and save, so shards are never read from nor written into a
        folder another account created (a shared XDG_CACHE_HOME) or a link leads to."""
        if self.cache_dir is None or self.folder is None:
            return False
        try:
            private_folder(private_folder(private_folder(self.cache_dir) / "index") / self.folder.name)
        except OSError:
            return False
        return True

    def load(self) -> dict[str, CacheEntry]:
        """Every cached entry; a missing, stale or damaged shard only loses its own module."""
        entries: dict[str, CacheEntry] = {}
        if self.folder is None or not self._private():
            return entries
        for shard in sorted(self.folder.glob("*.json")):
            entries.update(_read_shard(shard))
        return entries

    def save(self, entries: dict[str, CacheEntry], modules: set[str]) -> None:
        """Rewrite the shards of ``modules`` (removing those left with no file)."""
        if self.folder is None or not modules:
            return
        by_module: dict[str, dict[str, CacheEntry]] = {m: {} for m in modules}
        for path, entry in entries.items():
            if entry.data.module in by_module:
                by_module[entry.data.module][path] = entry
        if not self._private():
            return
        for module, shard_entries in by_module.items():
            shard = self.folder / f"{module}.json"
            if shard_entries:
                _write_atomic(shard, _HEADER + _ENTRIES.dump_json(shard_entries, exclude_defaults=True))
            elif shard.exists():
                shard.unlink(missing_ok=True)


INDEX_CODE = Path(__file__).resolve().parent


def code_digest(folder: Path = INDEX_CODE) -> str:
    """The index's own code (its parsers): a change re-reads every file on the next start, so a
    fixed parser never answers from a stale cache, whether or not CACHE_VERSION was bumped."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


_HEADER = json.dumps({"version": CACHE_VERSION, "code": code_digest()}).encode() + b"\n"


def _read_shard(shard: Path) -> dict[str, CacheEntry]:
    try:
        fd = os.open(shard, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
                return {}  # planted before the folder was narrowed to ours
            data = handle.read()
        head, _, body = data.partition(b"\n")
        if head + b"\n" != _HEADER:
            return {}
        return _ENTRIES.validate_json(body)
    except (OSError, ValueError, ValidationError):
        return {}


def _write_atomic(target: Path, payload: bytes) -> None:
    """A cache we cannot write only costs time on the next start: errors are swallowed."""
    with contextlib.suppress(OSError):
        if os.path.lexists(target) and os.lstat(target).st_uid != os.geteuid():
            target.unlink()  # another account's file would keep its owner when replaced
        atomic_write_bytes(target, payload, durable=False, mode=0o600)
