"""Lookup tables built from the indexed files: the base of every cross-module answer.

Built per module (``ModuleTable``) so a change rebuilds only its module's table; ``Tables``
answers across modules through read-only mappings that merge the module tables in install
order (one dict lookup per module, no global copy).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar

from odoo_tools.index._records import (
    AccessRow,
    ActionDef,
    FileData,
    MenuDef,
    ModelClass,
    RuleDef,
    ViewDef,
    XmlRecord,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Located(Generic[T]):
    module: str
    path: str  # relative to the module's root
    item: T


def model_ref_key(value: str) -> str:
    """The key under which a model is referenced: ``library.book`` and
    ``library_base.model_library_book`` both give ``model_library_book``."""
    tail = value.rsplit(".", 1)[-1] if "." in value and value.split(".", 1)[1].startswith("model_") else value
    return tail if tail.startswith("model_") else "model_" + value.replace(".", "_")


@dataclass
class ModuleTable:
    """What one module contributes, keyed for lookups."""

    module: str
    files: list[FileData]
    model_classes: dict[str, list[Located[ModelClass]]] = field(default_factory=dict)
    records: dict[str, list[Located[XmlRecord]]] = field(default_factory=dict)
    views: dict[str, list[Located[ViewDef]]] = field(default_factory=dict)
    view_children: dict[str, list[str]] = field(default_factory=dict)
    views_by_model: dict[str, list[str]] = field(default_factory=dict)
    actions_by_model: dict[str, list[Located[ActionDef]]] = field(default_factory=dict)
    access_by_model: dict[str, list[Located[AccessRow]]] = field(default_factory=dict)
    rules_by_model: dict[str, list[Located[RuleDef]]] = field(default_factory=dict)
    menus: list[Located[MenuDef]] = field(default_factory=list)


def build_module_table(module: str, files: Iterable[FileData]) -> ModuleTable:
    table = ModuleTable(module, sorted(files, key=lambda d: d.path))
    for data in table.files:
        path = data.path
        for cls in data.models:
            table.model_classes.setdefault(cls.model, []).append(Located(module, path, cls))
        for record in data.records:
            table.records.setdefault(record.xml_id, []).append(Located(module, path, record))
        for view in data.views:
            table.views.setdefault(view.xml_id, []).append(Located(module, path, view))
        for action in data.actions:
            if action.res_model:
                key = model_ref_key(action.res_model)
                table.actions_by_model.setdefault(key, []).append(Located(module, path, action))
        for row in data.access:
            table.access_by_model.setdefault(model_ref_key(row.model_key), []).append(
                Located(module, path, row)
            )
        for rule in data.rules:
            table.rules_by_model.setdefault(model_ref_key(rule.model_ref), []).append(
                Located(module, path, rule)
            )
        table.menus.extend(Located(module, path, menu) for menu in data.menus)
    for xml_id, located in table.views.items():
        view = located[-1].item  # a record defined twice: the later load wins, as in Odoo
        if view.inherit_id:
            table.view_children.setdefault(view.inherit_id, []).append(xml_id)
        if view.model:
            table.views_by_model.setdefault(view.model, []).append(xml_id)
    return table


class Merged(Mapping[str, list[T]]):
    """Read-only view of one per-module dict across every module, in install order."""

    def __init__(self, parts: list[dict[str, list[T]]]) -> None:
        self._parts = parts

    def __getitem__(self, key: str) -> list[T]:
        owners = self._owners.get(key)
        if owners is None:
            raise KeyError(key)
        return [item for i in owners for item in self._parts[i][key]]

    def __contains__(self, key: object) -> bool:
        return key in self._owners

    def __iter__(self) -> Iterator[str]:
        return iter(self._owners)

    def __len__(self) -> int:
        return len(self._owners)

    @cached_property
    def _owners(self) -> dict[str, list[int]]:
        """key -> the parts that have it, built once (a lookup then skips the other modules)."""
        owners: dict[str, list[int]] = {}
        for i, part in enumerate(self._parts):
            for key in part:
                owners.setdefault(key, []).append(i)
        return owners


class Tables:
    """Every module table, in install order, answering as if it were one set of dicts."""

    def __init__(self, modules: list[ModuleTable] | None = None) -> None:
        self.modules = modules or []
        parts = self.modules
        self.model_classes: Merged[Located[ModelClass]] = Merged([m.model_classes for m in parts])
        self.records: Merged[Located[XmlRecord]] = Merged([m.records for m in parts])
        self.views: Merged[Located[ViewDef]] = Merged([m.views for m in parts])
        self.view_children: Merged[str] = Merged([m.view_children for m in parts])
        self.views_by_model: Merged[str] = Merged([m.views_by_model for m in parts])
        self.actions_by_model: Merged[Located[ActionDef]] = Merged([m.actions_by_model for m in parts])
        self.access_by_model: Merged[Located[AccessRow]] = Merged([m.access_by_model for m in parts])
        self.rules_by_model: Merged[Located[RuleDef]] = Merged([m.rules_by_model for m in parts])

    @cached_property
    def files_by_module(self) -> dict[str, list[FileData]]:
        return {m.module: m.files for m in self.modules}

    @property
    def menus(self) -> list[Located[MenuDef]]:
        return [menu for m in self.modules for menu in m.menus]

    @property
    def access(self) -> list[Located[AccessRow]]:
        """Every access row, ir.model.access or ir.access (``access_by_model`` looks one model up)."""
        return [row for m in self.modules for rows in m.access_by_model.values() for row in rows]

    @property
    def rules(self) -> list[Located[RuleDef]]:
        return [rule for m in self.modules for rules in m.rules_by_model.values() for rule in rules]

    @cached_property
    def _model_by_ref(self) -> dict[str, str]:
        return {model_ref_key(name): name for name in self.model_classes}

    def model_of_ref(self, ref: str) -> str:
        """``library_base.model_library_book`` or ``model_library_book`` -> ``library.book``."""
        return self._model_by_ref.get(model_ref_key(ref), "")


def build_tables(
    files: Iterable[FileData], module_rank: dict[str, int], reuse: dict[str, ModuleTable] | None = None
) -> Tables:
    """Tables in install order (``module_rank``); modules in ``reuse`` keep their table."""
    by_module: dict[str, list[FileData]] = {}
    for data in files:
        by_module.setdefault(data.module, []).append(data)
    reuse = reuse or {}
    ordered = sorted(by_module, key=lambda m: (module_rank.get(m, 1 << 30), m))
    return Tables([reuse[m] if m in reuse else build_module_table(m, by_module[m]) for m in ordered])
