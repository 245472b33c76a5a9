"""The series packs: what a real Odoo registry of one series knows about its core (format 1).

A pack (``packs/<series>.json.xz``, written by the pack maker from a real Odoo with every LGPL
Community module installed) holds facts, never Odoo's text: the modules with their ``depends``, every
model with its fields (and the modules that define or extend each), its methods with their
signatures, the external IDs, the views' skeletons and the framework's Python names.

How a pack is found and read: ``_pack_files``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from odoo_tools.series._pack_shape import (
    UNDECODABLE,
    bad_pack,
    mapping,
    names,
    objects,
    strings_by_name,
    text,
)
from odoo_tools.series._pack_text import PackText


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
