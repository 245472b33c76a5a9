"""Bring the cached entries up to date with the files on disk, parsing only what changed.

A big cold build is spread over worker processes (``spawn``: safe from a threaded server);
small updates run in-process.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from odoo_tools.findings import Finding
from odoo_tools.index._cache import CacheEntry, SourceFile
from odoo_tools.index._csv_index import parse_csv
from odoo_tools.index._python_index import parse_python
from odoo_tools.index._records import FileData
from odoo_tools.index._xml_index import parse_xml
from odoo_tools.storage import MAX_SOURCE_BYTES, digest_bytes, read_capped

PARSERS: dict[str, Callable[[bytes, str, str], FileData]] = {
    "python": parse_python,
    "xml": parse_xml,
    "csv": parse_csv,
}
PARALLEL_MIN_FILES = 400  # below this, starting workers costs more than it saves
_BATCH = 200


@dataclass
class RefreshStats:
    """What one refresh did. ``parsed`` lists the files (absolute paths) actually re-read."""

    files: int = 0
    parsed: list[str] = field(default_factory=list)
    rehashed: int = 0  # stat changed, content did not
    removed: int = 0
    modules: set[str] = field(default_factory=set)  # modules with a parsed, rehashed or removed file
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.parsed or self.removed)


def update_entries(
    old: dict[str, CacheEntry], files: Iterable[SourceFile], workers: int | None = None
) -> tuple[dict[str, CacheEntry], RefreshStats]:
    """New entries for ``files``: unchanged stat -> reused; changed hash -> parsed again."""
    started = time.perf_counter()
    stats = RefreshStats()
    entries: dict[str, CacheEntry] = {}
    to_parse: list[SourceFile] = []
    for source in files:
        stats.files += 1
        cached = old.get(source.path)
        if cached is not None and (cached.mtime_ns, cached.size) == (source.mtime_ns, source.size):
            entries[source.path] = cached
        else:
            to_parse.append(source)
    for source, entry in _parse_all(to_parse, old, workers):
        if entry is None:
            continue
        cached = old.get(source.path)
        if cached is not None and cached.digest == entry.digest:
            stats.rehashed += 1
        else:
            stats.parsed.append(source.path)
        stats.modules.add(entry.data.module)
        entries[source.path] = entry
    removed = set(old) - set(entries)
    stats.removed = len(removed)
    stats.modules.update(old[path].data.module for path in removed)
    stats.parsed.sort()
    stats.seconds = time.perf_counter() - started
    return entries, stats


def parse_source(
    source: SourceFile, known_digest: str = "", known: FileData | None = None
) -> CacheEntry | None:
    """Read and index one file; ``None`` when it vanished or cannot be read."""
    try:
        data = read_capped(source.path)
    except OSError:
        return None
    if data is None:
        return CacheEntry(source.mtime_ns, source.size, TOO_LARGE, _too_large(source))
    key = digest_bytes(data)
    if known is not None and key == known_digest:
        return CacheEntry(source.mtime_ns, source.size, key, known)
    return CacheEntry(
        source.mtime_ns, source.size, key, PARSERS[source.kind](data, source.rel, source.module)
    )


TOO_LARGE = "too-large"  # the digest of a file not read (its stat changing brings it back)


def _too_large(source: SourceFile) -> FileData:
    finding = Finding(
        source="index",
        code="file-too-large",
        severity="warning",
        module=source.module,
        path=source.rel,
        message=f"{source.rel} was not read: it holds {source.size} bytes, over the "
        f"{MAX_SOURCE_BYTES}-byte cap for a source file. Its models, fields and xml ids are "
        "missing from the code index and the static checks.",
        hint="Odoo source files are far smaller: check whether it belongs in the module.",
    )
    return FileData(path=source.rel, module=source.module, kind=source.kind, findings=(finding,))


def _parse_all(
    sources: list[SourceFile], old: dict[str, CacheEntry], workers: int | None
) -> list[tuple[SourceFile, CacheEntry | None]]:
    count = _worker_count(len(sources), workers)
    if count <= 1:
        return [(s, _parse_known(s, old.get(s.path))) for s in sources]
    batches = [sources[i : i + _BATCH] for i in range(0, len(sources), _BATCH)]
    try:
        with ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn")) as pool:
            parsed = [pair for batch in pool.map(_parse_batch, batches) for pair in batch]
    except (BrokenProcessPool, RuntimeError, OSError):
        # Workers could not start (e.g. a __main__ without the ``if __name__ == "__main__"`` guard
        # that spawn needs): do the work here instead.
        return [(s, _parse_known(s, old.get(s.path))) for s in sources]
    # Files whose content did not change keep their cached data object (same digest).
    return [(s, _keep_known(e, old.get(s.path))) for s, e in parsed]


def _parse_known(source: SourceFile, cached: CacheEntry | None) -> CacheEntry | None:
    if cached is None:
        return parse_source(source)
    return parse_source(source, cached.digest, cached.data)


def _keep_known(entry: CacheEntry | None, cached: CacheEntry | None) -> CacheEntry | None:
    if entry is None or cached is None or cached.digest != entry.digest:
        return entry
    return CacheEntry(entry.mtime_ns, entry.size, entry.digest, cached.data)


def _parse_batch(batch: list[SourceFile]) -> list[tuple[SourceFile, CacheEntry | None]]:
    return [(source, parse_source(source)) for source in batch]


def _worker_count(pending: int, requested: int | None) -> int:
    if requested is not None:
        return max(1, requested) if pending >= 2 else 1
    if pending < PARALLEL_MIN_FILES:
        return 1
    return max(1, min(os.cpu_count() or 1, 4))
