"""Lookup tables built from all indexed files: the base of every cross-module answer."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from odoo_tools.index.records import (
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


@dataclass
class Tables:
    files_by_module: dict[str, list[FileData]] = field(default_factory=dict)
    model_classes: dict[str, list[Located[ModelClass]]] = field(default_factory=dict)  # load order
    records: dict[str, list[Located[XmlRecord]]] = field(default_factory=dict)
    views: dict[str, list[Located[ViewDef]]] = field(default_factory=dict)
    view_children: dict[str, list[str]] = field(default_factory=dict)
    views_by_model: dict[str, list[str]] = field(default_factory=dict)
    menus: list[Located[MenuDef]] = field(default_factory=list)
    actions: dict[str, list[Located[ActionDef]]] = field(default_factory=dict)
    access: list[Located[AccessRow]] = field(default_factory=list)
    rules: list[Located[RuleDef]] = field(default_factory=list)
    model_refs: dict[str, str] = field(default_factory=dict)  # "model_library_book" -> "library.book"

    def model_of_ref(self, ref: str) -> str:
        """``library_base.model_library_book`` or ``model_library_book`` -> ``library.book``."""
        return self.model_refs.get(ref.rsplit(".", 1)[-1], "")


def build_tables(files: Iterable[FileData], module_rank: dict[str, int]) -> Tables:
    """Group every file's content by what queries look up. ``module_rank``: install order."""
    tables = Tables()
    by_module: defaultdict[str, list[FileData]] = defaultdict(list)
    for data in files:
        by_module[data.module].append(data)
    for module in sorted(by_module, key=lambda m: (module_rank.get(m, 1 << 30), m)):
        module_files = sorted(by_module[module], key=lambda d: d.path)
        tables.files_by_module[module] = module_files
        for data in module_files:
            _add_file(tables, data)
    for name in tables.model_classes:
        tables.model_refs["model_" + name.replace(".", "_")] = name
    for xml_id, located in tables.views.items():
        view = located[-1].item  # a record defined twice: the later load wins, as in Odoo
        if view.inherit_id:
            tables.view_children.setdefault(view.inherit_id, []).append(xml_id)
        if view.model:
            tables.views_by_model.setdefault(view.model, []).append(xml_id)
    return tables


def _add_file(tables: Tables, data: FileData) -> None:
    module, path = data.module, data.path
    for model_class in data.models:
        tables.model_classes.setdefault(model_class.model, []).append(Located(module, path, model_class))
    for record in data.records:
        tables.records.setdefault(record.xml_id, []).append(Located(module, path, record))
    for view in data.views:
        tables.views.setdefault(view.xml_id, []).append(Located(module, path, view))
    for action in data.actions:
        tables.actions.setdefault(action.xml_id, []).append(Located(module, path, action))
    tables.menus.extend(Located(module, path, menu) for menu in data.menus)
    tables.access.extend(Located(module, path, row) for row in data.access)
    tables.rules.extend(Located(module, path, rule) for rule in data.rules)
