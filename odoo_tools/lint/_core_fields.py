"""Odoo's core models per series without an Odoo source: the bundled lists
(``core_fields/<series>.json.gz``, written by ``scripts/core_fields.py`` from each series' source)
and what one series removed from the one before: what migrate reads. (The static checks judge a
module against the series pack, what a real registry of its series has: ``odoo_tools.series.pack``.)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from odoo_tools.index import FieldDef, ModelClass, load_core_classes
from odoo_tools.series import CORE_FIELDS_DIR, MAGIC_FIELDS


def core_fields(series: str) -> dict[str, ModelClass]:
    """The core models of ``series`` (one merged class each); empty when no list is bundled."""
    return load_core_classes(CORE_FIELDS_DIR / f"{series}.json.gz")


@dataclass(frozen=True)
class RemovedField:
    model: str
    name: str
    type: str  # its type in the older series ("Boolean", "Many2one"...; "Field" when unknown)
    comodel: str = ""


@dataclass(frozen=True)
class CoreDifference:
    """What the core of ``new`` no longer has from ``old``: whole models, fields of the models
    both have (with their parents': a field moved to a mixin the model inherits is still there; a
    name still there under another type is changed, not removed), listed methods (``_compute_``,
    ``_inverse_``, ``_search_`` ones: the lists hold no others)."""

    old: str
    new: str
    removed_models: frozenset[str]
    removed_fields: dict[str, dict[str, RemovedField]]  # model -> field name -> field
    changed_fields: dict[str, dict[str, tuple[str, str]]]  # model -> name -> (old type, new type)
    removed_methods: dict[str, frozenset[str]]  # model -> method names

    def removed_field(self, model: str, name: str) -> RemovedField | None:
        return self.removed_fields.get(model, {}).get(name)


@functools.cache
def core_difference(old: str, new: str) -> CoreDifference:
    """What series ``new``'s core removed from series ``old``'s (both bundled lists; a missing list
    gives an empty difference). Models whose classes the index could not read completely
    (``opaque``) are left out: their lists may lack what they really have."""
    return difference_of(old, core_fields(old), new, core_fields(new))


def difference_of(
    old: str, before: dict[str, ModelClass], new: str, after: dict[str, ModelClass]
) -> CoreDifference:
    """What ``after`` (series ``new``) no longer has from ``before``: nothing when either is empty."""
    if not before or not after:
        return CoreDifference(old, new, frozenset(), {}, {}, {})
    removed_models = frozenset(m for m, cls in before.items() if m not in after and not cls.opaque)
    removed_fields: dict[str, dict[str, RemovedField]] = {}
    changed: dict[str, dict[str, tuple[str, str]]] = {}
    methods: dict[str, frozenset[str]] = {}
    for model in sorted(before):
        if model not in after or _opaque_chain(before, model) or _opaque_chain(after, model):
            continue
        new_fields = _all_fields(after, model)
        for fdef in _all_fields(before, model).values():
            later = new_fields.get(fdef.name)
            if fdef.type == "Field" or fdef.name in MAGIC_FIELDS:
                # a name the class binds, not known to be a field; or one BaseModel gives every
                # model (19.0's project.project no longer declares display_name: it still has it)
                continue
            if later is None:
                removed_fields.setdefault(model, {})[fdef.name] = RemovedField(
                    model, fdef.name, fdef.type, fdef.comodel
                )
            elif later.type != "Field" and later.type != fdef.type:
                changed.setdefault(model, {})[fdef.name] = (fdef.type, later.type)
        gone = _all_methods(before, model) - _all_methods(after, model)
        if gone:
            methods[model] = frozenset(gone)
    return CoreDifference(old, new, removed_models, removed_fields, changed, methods)


def core_model_fields(series: str, model: str) -> dict[str, FieldDef]:
    """Every field a core model has on ``series``: its own classes' and its parents'."""
    return _all_fields(core_fields(series), model)


def _chain(classes: dict[str, ModelClass], model: str) -> list[ModelClass]:
    """The model's class, then every parent's (``_inherit``, ``_inherits``, and ``base``, which every
    model inherits), each once."""
    seen: list[ModelClass] = []
    todo = [model, "base"]
    names: set[str] = set()
    while todo:
        name = todo.pop(0)
        cls = classes.get(name)
        if name in names or cls is None:
            continue
        names.add(name)
        seen.append(cls)
        todo.extend(cls.inherit)
        todo.extend(target for target, _ in cls.inherits)
    return seen


def _opaque_chain(classes: dict[str, ModelClass], model: str) -> bool:
    return any(cls.opaque for cls in _chain(classes, model))


def _all_fields(classes: dict[str, ModelClass], model: str) -> dict[str, FieldDef]:
    found: dict[str, FieldDef] = {}
    for cls in _chain(classes, model):
        for fdef in cls.fields:
            found.setdefault(fdef.name, fdef)
    return found


def _all_methods(classes: dict[str, ModelClass], model: str) -> set[str]:
    return {m.name for cls in _chain(classes, model) for m in cls.methods}
