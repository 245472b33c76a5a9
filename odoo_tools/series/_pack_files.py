"""Where the series packs are and how one is read (format 1; the types it is read into: ``_pack``).

``pack(series)`` reads the pack bundled for that series, once per process and only when asked;
``None`` when none is bundled (a caller then says the pack is missing: another series' pack is
never borrowed). Models are decoded on first use. A folder named by ``ASSISTA_SERIES_PACKS`` is
looked in first (a pack made from the user's own Odoo, a test's tiny pack). A pack is compact JSON
compressed with xz (``.json.xz``, what the pack maker writes: half the size of gzip for a few tens of
milliseconds more to unpack) or gzip (``.json.gz``, the packs made before, still read).
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import lzma
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from odoo_tools.series._names import series_family
from odoo_tools.series._pack import PackModule, SeriesPack
from odoo_tools.series._pack_shape import (
    UNDECODABLE,
    bad_pack,
    mapping,
    names,
    objects,
    strings_by_name,
    text,
    unreadable_pack,
    whole,
)
from odoo_tools.series._pack_text import PackText
from odoo_tools.storage import read_capped

PACKS = Path(__file__).resolve().parent / "packs"


PACKS_ENV = "ASSISTA_SERIES_PACKS"


FORMAT = 1


# The largest pack read: the bundled ones are 0.9-1.1 MB packed (xz), 22-31 MB of JSON.
MAX_PACKED_BYTES = 64 * 1024 * 1024


MAX_JSON_BYTES = 512 * 1024 * 1024


# The names a pack file may have, the preferred first (a folder holding both gives the xz one).
PACK_SUFFIXES = (".json.xz", ".json.gz")


def pack_folders() -> list[Path]:
    """The ``ASSISTA_SERIES_PACKS`` folders, absolute ones only: a relative entry would be read
    from wherever the command runs, most often a repository, and a pack is never a repository's
    file (as a relative ``ASSISTA_CACHE_DIR`` is ignored)."""
    return [Path(p) for p in (os.environ.get(PACKS_ENV) or "").split(os.pathsep) if os.path.isabs(p)]


def pack_path(series: str) -> Path | None:
    """Where the pack of ``series`` is: the ``ASSISTA_SERIES_PACKS`` folder first, then the
    bundled one; None when neither has it."""
    family = series_family(series)
    if family is None:
        return None
    candidates = (f / f"{family}{suffix}" for f in [*pack_folders(), PACKS] for suffix in PACK_SUFFIXES)
    return next((path for path in candidates if path.is_file()), None)


def _unpacked(path: Path, packed: IO[bytes]) -> io.BufferedIOBase:
    """The decompressed stream of the pack file ``path`` (its suffix says xz or gzip)."""
    if path.name.endswith(".json.xz"):
        return lzma.LZMAFile(packed)
    return gzip.GzipFile(fileobj=packed)


def _series_of(path: Path) -> str:
    name = path.name
    for suffix in PACK_SUFFIXES:
        name = name.removesuffix(suffix)
    return series_family(name) or ""


@dataclass(frozen=True)
class PackHeader:
    """What a pack says of itself (its ``made_by``), read without opening the whole pack."""

    series: str
    odoo_version: str
    modules: int
    installed: bool  # made from a database where the modules were installed: external IDs, views


# made_by comes early in the file (sorted keys: access_models, format, framework_methods, made_by...):
# read until it is whole, in chunks, at most this far.
HEADER_CHUNK = 1 << 16


HEADER_LIMIT = 1 << 23


def pack_header(series: str | None) -> PackHeader | None:
    """The header of the pack of ``series`` (None when none is found or it cannot be read): what a
    note needs, for the price of the file's first kilobytes."""
    path = pack_path(series) if series else None
    return _header(path) if path is not None else None


@functools.cache
def _header(path: Path) -> PackHeader | None:
    made_by: Any = None
    try:
        with path.open("rb") as packed, _unpacked(path, packed) as stream:
            head = b""
            while made_by is None and len(head) < HEADER_LIMIT:
                chunk = stream.read(HEADER_CHUNK)
                head += chunk
                made_by = _made_by(head.decode("utf-8", errors="replace"))
                if not chunk:
                    break
    except (OSError, EOFError, lzma.LZMAError):
        return None
    if not isinstance(made_by, dict):
        return None
    return PackHeader(
        series=_series_of(path),
        odoo_version=text(made_by.get("odoo_version"), path, "made_by.odoo_version"),
        modules=whole(made_by.get("modules"), path, "made_by.modules"),
        installed=made_by.get("installed") is not False,
    )


def _made_by(head: str) -> Any:
    """The ``made_by`` object if ``head`` holds it whole, else None."""
    start = head.find('"made_by":')
    if start < 0:
        return None
    try:
        return json.JSONDecoder().raw_decode(head, start + len('"made_by":'))[0]
    except UNDECODABLE:
        return None


def pack(series: str | None) -> SeriesPack | None:
    """The pack of ``series`` (``"18.0"``, ``"saas~18.2"`` -> 18.0's), None when none is found."""
    path = pack_path(series) if series else None
    return load_pack(path) if path is not None else None


@functools.cache
def load_pack(path: Path) -> SeriesPack | None:
    """The pack in ``path``; None when it cannot be read or is not of format 1. ``BadPack`` when
    it is a pack whose values are not of their types, or larger than any real one."""
    try:
        packed = read_capped(path, MAX_PACKED_BYTES)  # a pipe never blocks
    except OSError as exc:
        raise unreadable_pack(path, exc.strerror or type(exc).__name__) from exc
    if packed is None:
        raise bad_pack(path, "the file", f"is over {MAX_PACKED_BYTES} bytes")
    try:
        with _unpacked(path, io.BytesIO(packed)) as stream:
            data = stream.read(MAX_JSON_BYTES + 1)  # a gzip or xz bomb stops here
    except (OSError, EOFError, lzma.LZMAError) as exc:  # not that compression, cut short, a wrong CRC
        kind = "xz" if path.name.endswith(".json.xz") else "gzip"
        raise unreadable_pack(path, f"it is not a whole {kind} file ({exc})") from exc
    if len(data) > MAX_JSON_BYTES:
        raise bad_pack(path, "its JSON", f"is over {MAX_JSON_BYTES} bytes")
    try:
        pack_text = PackText(data.decode("utf-8"))
    except RecursionError as exc:
        raise bad_pack(path, "its JSON", "nests deeper than the decoder goes") from exc
    except ValueError as exc:  # UnicodeDecodeError is one
        raise unreadable_pack(path, f"its content is not UTF-8 JSON ({str(exc)[:200]})") from exc
    raw = pack_text.top
    if raw.get("format") != FORMAT:
        return None
    modules = {
        name: PackModule(
            name,
            names(m.get("depends"), path, f"modules.{name}.depends"),
            bool(m.get("auto_install")),
            whole(m.get("order"), path, f"modules.{name}.order"),
        )
        for name, m in objects(raw.get("modules"), path, "modules").items()
    }
    made_by = mapping(raw.get("made_by"), path, "made_by")
    python_names = mapping(raw.get("python_names"), path, "python_names")
    for module, found in python_names.items():
        names(found, path, f"python_names.{module}")
    return SeriesPack(
        series=text(raw.get("series"), path, "series"),
        odoo_version=text(made_by.get("odoo_version"), path, "made_by.odoo_version"),
        path=path,
        modules=modules,
        python_names=python_names,
        _text=pack_text,
        framework_methods=strings_by_name(raw.get("framework_methods"), path, "framework_methods"),
    )
