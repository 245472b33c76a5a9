"""The series packs: what a real Odoo registry of one series knows about its core (format 1).

A pack (``packs/<series>.json.xz``, written by the pack maker from a real Odoo with every LGPL
Community module installed) holds facts, never Odoo's text: the modules with their ``depends``, every
model with its fields (and the modules that define or extend each), its methods with their
signatures, the external IDs, the views' skeletons and the framework's Python names.

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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from odoo_tools.series._names import series_family
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


@dataclass(frozen=True, slots=True)
class PackField:
    name: str
    type: str  # Odoo's field type: "char", "many2one"...
    modules: tuple[str, ...]  # the modules that define or extend it
    comodel: str = ""
    inverse_name: str = ""
    related: str = ""
    compute: str = ""
    inverse: str = ""
    search: str = ""
    store: bool = True
    required: bool = False
    readonly: bool = False
    delegate: bool = False  # the link field of an ``_inherits``
    selection: tuple[str, ...] = ()
    inherited: str = ""  # the model it comes from through ``_inherits`` ("" when its own)
    relation: str = ""


@dataclass(frozen=True, slots=True)
class PackMethod:
    name: str
    params: str  # "(self, vals)"
    modules: tuple[str, ...]  # the addons whose classes define it; () for the framework's


@dataclass(frozen=True)
class PackModel:
    name: str
    modules: tuple[str, ...]  # the modules whose classes define or extend it, the defining one first
    abstract: bool
    transient: bool
    inherit: tuple[str, ...]
    inherits: dict[str, str]  # delegated model -> link field
    rec_name: str
    order: str
    fields: dict[str, PackField]
    methods: dict[str, PackMethod]

    def seen_from(self, closure: frozenset[str]) -> PackModel | None:
        """The model as a module whose dependency closure is ``closure`` sees it (None when no
        module of the closure defines it): only what a module of the closure adds."""
        if not _seen(self.modules, closure):
            return None
        return PackModel(
            self.name,
            tuple(m for m in self.modules if m in closure),
            self.abstract,
            self.transient,
            self.inherit,
            self.inherits,
            self.rec_name,
            self.order,
            {n: f for n, f in self.fields.items() if _seen(f.modules, closure)},
            {n: m for n, m in self.methods.items() if not m.modules or _seen(m.modules, closure)},
        )


@dataclass(frozen=True)
class PackModule:
    name: str
    depends: tuple[str, ...]
    auto_install: bool
    order: int


@dataclass
class SeriesPack:
    """One series' pack; models and views decoded on demand."""

    series: str
    odoo_version: str
    path: Path
    modules: dict[str, PackModule]
    python_names: dict[str, list[str]]
    _text: PackText
    # name -> params of the methods only the framework defines, the same on every model: stored once
    # in the pack ("framework_methods"), every model has them (no module)
    framework_methods: dict[str, str] = field(default_factory=dict)
    _models: dict[str, PackModel | None] = field(default_factory=dict)

    @property
    def model_names(self) -> Iterable[str]:
        return self._text.keys("models")

    def model(self, name: str) -> PackModel | None:
        """Every fact of ``name`` in the full install, None when no core module has it."""
        if name not in self._models:
            try:
                raw = self._text.item("models", name)
            except UNDECODABLE as exc:
                raise bad_pack(self.path, f"models.{name}", "does not decode") from exc
            self._models[name] = (
                _model(self.path, name, raw, self.framework_methods) if raw is not None else None
            )
        return self._models[name]

    @functools.cached_property
    def owners(self) -> Mapping[str, str]:
        """model -> the core module that defines it (the first of its modules: the pack maker puts
        the defining one first)."""
        return _Owners(self)

    @functools.cached_property
    def xmlids(self) -> dict[str, dict[str, str]]:
        """module -> name -> model of every external ID (decoded on first use)."""
        try:
            found = self._text.section("xmlids")
        except UNDECODABLE as exc:
            raise bad_pack(self.path, "xmlids", "does not decode") from exc
        for module, ids in mapping(found, self.path, "xmlids").items():
            strings_by_name(ids, self.path, f"xmlids.{module}")
        return found or {}

    @functools.cached_property
    def views(self) -> dict[str, dict[str, Any]]:
        """ "module.name" -> the view's facts (skeletons as in the file); every view decoded."""
        try:
            found = {key: self._text.item("views", key) for key in self._text.keys("views")}
        except UNDECODABLE as exc:
            raise bad_pack(self.path, "views", "does not decode") from exc
        return objects(found, self.path, "views")

    def view(self, key: str) -> dict[str, Any] | None:
        """One view's facts (``"module.name"``), decoded alone; None when the pack has none."""
        found = self._text.item("views", key)
        return found if isinstance(found, dict) else None

    def closure(self, names: Iterable[str]) -> frozenset[str]:
        """The pack's modules that ``names`` need (themselves and their depends, transitively);
        names the pack does not know are left out."""
        seen: set[str] = set()
        todo = [n for n in names if n in self.modules]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(d for d in self.modules[name].depends if d in self.modules)
        return frozenset(seen)

    def xmlid_model(self, xml_id: str) -> str | None:
        """The model of a core external ID ``module.name``, None when the pack has none."""
        module, _, name = xml_id.partition(".")
        return self.xmlids.get(module, {}).get(name)


class _Owners(Mapping[str, str]):
    def __init__(self, pack: SeriesPack) -> None:
        self.pack = pack

    def __getitem__(self, name: str) -> str:
        model = self.pack.model(name)
        if model is None or not model.modules:
            raise KeyError(name)
        return model.modules[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self.pack.model_names)

    def __len__(self) -> int:
        return len(self.pack._text.keys("models"))


def _seen(modules: tuple[str, ...], closure: frozenset[str]) -> bool:
    return any(m in closure for m in modules)


def _model(path: Path, name: str, value: Any, framework: Mapping[str, str] | None = None) -> PackModel:
    """The model ``name`` of the pack in ``path``; ``BadPack`` when a value is not of its type."""
    where = f"models.{name}"
    raw = mapping(value, path, where)
    fields = {
        fname: _field(path, f"{where}.fields.{fname}", fname, f)
        for fname, f in _objects(raw, "fields", path, where)
    }
    methods = {mname: PackMethod(mname, str(params), ()) for mname, params in (framework or {}).items()}
    methods |= {
        mname: PackMethod(
            mname,
            text(m.get("params"), path, f"{where}.methods.{mname}.params"),
            names(m.get("modules"), path, f"{where}.methods.{mname}.modules"),
        )
        for mname, m in _objects(raw, "methods", path, where)
    }
    return PackModel(
        name=name,
        modules=names(raw.get("modules"), path, f"{where}.modules"),
        abstract=bool(raw.get("abstract")),
        transient=bool(raw.get("transient")),
        inherit=names(raw.get("inherit"), path, f"{where}.inherit"),
        inherits=strings_by_name(raw.get("inherits"), path, f"{where}.inherits"),
        rec_name=text(raw.get("rec_name"), path, f"{where}.rec_name"),
        order=text(raw.get("order"), path, f"{where}.order"),
        fields=fields,
        methods=methods,
    )


def _objects(
    raw: Mapping[str, Any], key: str, path: Path, where: str
) -> Iterable[tuple[str, dict[str, Any]]]:
    return objects(raw.get(key), path, f"{where}.{key}").items()


def _field(path: Path, where: str, name: str, raw: Mapping[str, Any]) -> PackField:
    strings = {
        key: text(raw.get(key), path, f"{where}.{key}")
        for key in (
            "comodel",
            "inverse_name",
            "related",
            "relation",
            "compute",
            "inverse",
            "search",
            "inherited",
        )
    }
    return PackField(
        name=name,
        type=text(raw.get("type"), path, f"{where}.type"),
        modules=names(raw.get("modules"), path, f"{where}.modules"),
        store=raw.get("store", True) is not False,
        required=bool(raw.get("required")),
        readonly=bool(raw.get("readonly")),
        delegate=bool(raw.get("delegate")),
        selection=names(raw.get("selection"), path, f"{where}.selection"),
        **strings,
    )


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
