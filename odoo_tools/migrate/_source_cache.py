"""What a pass reads from a whole Odoo source (its methods' signatures, its external IDs...), kept
in the user's cache folder keyed by the source's files (names, sizes, times) and by how it is read:
reading a whole source takes 10-40 s, loading the kept reading under a second."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from odoo_tools.storage import atomic_write_json, default_cache_dir

T = TypeVar("T")


def cached_reading(
    kind: str,
    reading: int,
    source: Path,
    files: Sequence[Path],
    read: Callable[[], T],
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> T:
    """``read()``'s result for ``source``, from the cache when ``files`` and ``reading`` (raised
    when the way of reading changes) are as they were; a kept reading that does not decode is
    read again."""
    key = hashlib.sha256(f"{reading}\0{source.resolve()}".encode())
    for path in files:
        stat = path.stat()
        key.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    cached = default_cache_dir() / "migrate" / f"{kind}-{key.hexdigest()[:32]}.json"
    try:
        return decode(json.loads(cached.read_bytes()))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found = read()
    cached.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(cached, encode(found))
    return found
