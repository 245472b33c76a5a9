"""What a pass reads from a whole Odoo source (its methods' signatures, its external IDs...), kept
in the user's cache folder keyed by the source's files (names, sizes, times) and by how it is read:
reading a whole source takes 10-40 s, loading the kept reading under a second.

A kept reading is data someone else may have written: the cache root can be shared (one
``XDG_CACHE_HOME`` for several accounts) or have been left open under umask 0. So the folder must
be this user's alone (0700, checked on every use, else nothing is kept nor read), a file is read
only when it is this user's and 0600, and whatever ``decode`` refuses or fails on (a malformed or
planted reading: ``"parents": []``, nesting deeper than the parser goes, a default that is not a
literal) is read again from the source."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from odoo_tools.storage import default_cache_dir, private_folder, read_private, write_private

T = TypeVar("T")
MAX_READING_BYTES = 256 * 1024 * 1024  # a whole source's reading: tens of MB for Odoo 18


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
        stat_ = path.stat()
        key.update(f"{path}\0{stat_.st_size}\0{stat_.st_mtime_ns}\n".encode())
    try:
        folder = private_folder(private_folder(default_cache_dir()) / "migrate")
    except OSError:
        return read()  # no folder of this user's alone: nothing is kept, nothing trusted
    cached = folder / f"{kind}-{key.hexdigest()[:32]}.json"
    kept = _private_json(cached)
    if kept is not None:
        try:
            return decode(kept)
        except Exception:  # any malformed reading is read again, never a crash
            pass
    found = read()
    with contextlib.suppress(OSError):
        write_private(cached, json.dumps(encode(found)).encode())
    return found


def _private_json(path: Path) -> Any:
    """The JSON in ``path`` when it is a regular file of this user that no one else may read or
    write (0600); None otherwise, or when it does not parse."""
    data = read_private(path, MAX_READING_BYTES)
    try:
        return json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return None
