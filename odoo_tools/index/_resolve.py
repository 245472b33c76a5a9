"""Models as the ORM sees them from one module: the classes of its dependency closure merged.

A model's fields and methods come from every class of the closure that defines or extends it
(``_name`` / ``_inherit``), from the models it inherits (``_inherit`` parents, mixins such as
``mail.thread``), from the models it delegates to (``_inherits``: fields only), from classes
extending ``base`` (every model), and from ``BaseModel`` itself (magic fields, its methods).

Absence is only claimed for a *complete* model: one defined in an indexed module of the
closure, every contributing class read (no plain Python base, no ``_inherit`` we could not read),
every parent complete, every dependency found. A core model without an Odoo source is never
complete, so nothing is claimed about its fields: no false errors.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.index._core_classes import LISTED_METHODS
from odoo_tools.index._records import FieldDef, ModelClass
from odoo_tools.index._tables import Located, Tables
from odoo_tools.sources import python_tree

BASE = "base"  # the abstract model every model inherits (``_inherit = "base"`` extends them all)
# The field types that point to another model: the one home of these names (lint imports them).
X2MANY = frozenset({"One2many", "Many2many"})
RELATIONAL = X2MANY | {"Many2one"}
MAX_RELATED_HOPS = 32  # related fields followed through one another (a real chain has a few)


@dataclass
class ResolvedModel:
    """One model from one module's point of view."""

    name: str
    defined: bool  # a class of the closure defines it (or Odoo's core does)
    complete: bool  # every field and method it has is known: an absent name is truly absent
    fields: dict[str, Located[FieldDef]] = field(default_factory=dict)
    methods: set[str] = field(default_factory=set)
    loose_names: set[str] = field(default_factory=set)  # class attributes that are not fields.X()
    magic: frozenset[str] = frozenset()
    listed_methods_only: bool = False  # some class came from the bundled core list

    def has_field(self, name: str) -> bool | None:
        """True / False, or None when it cannot be told (incomplete model)."""
        if name in self.fields or name in self.magic or name in self.loose_names:
            return True
        return False if self.complete else None

    def has_method(self, name: str) -> bool | None:
        if name in self.methods or name in self.loose_names:
            return True
        if self.listed_methods_only and not name.startswith(LISTED_METHODS):
            return None
        return False if self.complete else None


@dataclass
class ModelResolver:
    """Answers about models for one module: ``closure`` is the module and every dependency.

    ``readable``: the closure's modules whose files the index read; ``closure_known``: every
    dependency was found (on disk or in the core list); ``core_models``: model -> core module
    for models known only by name (no Odoo source); ``magic_fields`` / ``base_methods``: what
    ``BaseModel`` gives every model on this series.
    """

    tables: Tables
    closure: frozenset[str]
    closure_known: bool
    core_models: Mapping[str, str]
    magic_fields: frozenset[str]
    base_methods: frozenset[str]
    # Without an Odoo source: each core model as one class merged from every core module (the
    # bundled list of the series), standing for the core modules of the closure.
    core_classes: Mapping[str, ModelClass] = field(default_factory=dict)
    models_exact: bool = True  # core_models lists the series' models (not a neighbour series')
    # The core classes come from the series pack: every field and method a real registry gives
    # the closure is in them. The classes the index read of these modules (an Odoo source) are
    # left out: the pack says the same, exactly, and the answers do not depend on a source.
    core_complete: bool = False
    pack_modules: frozenset[str] = frozenset()
    _memo: dict[str, ResolvedModel] = field(default_factory=dict)

    def classes(self, model: str) -> list[Located[ModelClass]]:
        """The classes of ``model`` in the closure, in install order (a listed core class, whose
        path is "", first)."""
        found = []
        if model in self.tables.model_classes:
            found = [
                c
                for c in self.tables.model_classes[model]
                if c.module in self.closure and c.module not in self.pack_modules
            ]
        core = self.core_classes.get(model)
        owner = self.core_models.get(model, BASE)
        if core is not None and owner in self.closure and not any(c.item.defines for c in found):
            found.insert(0, Located(owner, "", core))
        return found

    def outside_closure(self, model: str) -> bool:
        """A listed core model whose module is not in the closure (absent for this module)."""
        return model in self.core_classes and self.core_models.get(model, BASE) not in self.closure

    def defined_anywhere(self, model: str) -> bool | None:
        """Whether any module at all (indexed or core) defines ``model``; None when unknowable."""
        if model in self.core_models or model == BASE:
            return True
        located = self.tables.model_classes.get(model, []) if model in self.tables.model_classes else []
        if any(c.item.defines for c in located):
            return True
        return False if self.closure_known and self.models_exact else None

    def model(self, name: str) -> ResolvedModel:
        if name not in self._memo:
            # The models it inherits are resolved first, deepest first, so a 1,500-deep
            # ``_inherit`` chain is a loop here, never 1,500 nested calls (a RecursionError).
            for pending in self._unresolved_below(name):
                self._memo[pending] = ResolvedModel(pending, defined=False, complete=False)  # cycle guard
                self._memo[pending] = self._resolve(pending)
        return self._memo[name]

    def _unresolved_below(self, name: str) -> list[str]:
        """``name`` and the models it needs (parents, delegates) not resolved yet, each after
        the ones it needs; a cycle is cut where it closes."""
        order: list[str] = []
        seen: set[str] = set()
        stack = [(name, False)]
        while stack:
            current, needs_done = stack.pop()
            if needs_done:
                order.append(current)
            elif current not in seen and current not in self._memo:
                seen.add(current)
                stack.append((current, True))
                parents, delegated = self._needs(current, self.classes(current))
                stack.extend((m, False) for m in reversed(parents + delegated))
        return order

    def _needs(self, name: str, classes: list[Located[ModelClass]]) -> tuple[list[str], list[str]]:
        """The models ``name`` inherits (``_inherit`` parents, then ``base``) and delegates to."""
        parents: list[str] = []
        delegated: list[str] = []
        for located in classes:
            parents.extend(p for p in located.item.parents if p not in parents)
            delegated.extend(m for m, _ in located.item.inherits if m not in delegated)
        if name != BASE:
            parents.append(BASE)
        return [p for p in parents if not self.outside_closure(p)], delegated

    def _resolve(self, name: str) -> ResolvedModel:
        classes = self.classes(name)
        defined_here = any(c.item.defines for c in classes)
        core = self.core_models.get(name)
        result = ResolvedModel(
            name,
            defined=defined_here or (core is not None and core in self.closure),
            complete=defined_here and self.closure_known and not any(c.item.opaque for c in classes),
            magic=self.magic_fields,
        )
        parents, delegated = self._needs(name, classes)
        for parent in parents:  # a listed core parent of a module outside the closure is not there
            inherited = self.model(parent)
            result.fields.update(inherited.fields)
            result.methods |= inherited.methods
            result.loose_names |= inherited.loose_names
            result.listed_methods_only |= inherited.listed_methods_only
            if parent != BASE and not inherited.complete:
                result.complete = False
        for target in delegated:
            inherited = self.model(target)
            for fname, located_field in inherited.fields.items():
                result.fields.setdefault(fname, located_field)
            result.loose_names |= inherited.loose_names
            if not inherited.complete:
                result.complete = False
        result.methods |= self.base_methods
        result.listed_methods_only |= not self.core_complete and any(not c.path for c in classes)
        for located in classes:
            for fdef in located.item.fields:
                earlier = result.fields.get(fdef.name)
                merged = _merge(earlier.item, fdef) if earlier is not None else fdef
                result.fields[fdef.name] = Located(located.module, located.path, merged)
            result.methods.update(m.name for m in located.item.methods)
            result.loose_names.update(located.item.other_names)
        return result

    def comodel(self, model: str, fname: str, _seen: frozenset[tuple[str, str]] = frozenset()) -> str | None:
        """The comodel of relational field ``model.fname`` (following ``related``), else None
        (also for a ``related`` that leads back to itself, or past ``MAX_RELATED_HOPS`` fields)."""
        located = self.model(model).fields.get(fname)
        if located is None:
            return None
        fdef = located.item
        if fdef.type not in RELATIONAL:
            return None
        if fdef.comodel:
            return fdef.comodel
        if fdef.related and (model, fname) not in _seen and len(_seen) < MAX_RELATED_HOPS:
            seen = _seen | {(model, fname)}
            end = self.follow(model, fdef.related, seen)
            return self.comodel(end[0], end[1], seen) if end else None
        return None

    def follow(
        self, model: str, path: str, _seen: frozenset[tuple[str, str]] = frozenset()
    ) -> tuple[str, str] | None:
        """(model, field) of the last segment of a dotted path, or None when it does not resolve."""
        names = path.split(".")
        current = model
        for i, fname in enumerate(names):
            if self.model(current).has_field(fname) is not True:
                return None
            if i == len(names) - 1:
                return current, fname
            nxt = self.comodel(current, fname, _seen)
            if nxt is None:
                return None
            current = nxt
        return None

    def broken_segment(self, model: str, path: str) -> tuple[int, str, str] | None:
        """The first segment of ``path`` certainly absent: (its index, the name, the model it was
        looked up on); None when the path resolves or cannot be told."""
        current = model
        names = path.split(".")
        for i, fname in enumerate(names):
            known = self.model(current).has_field(fname)
            if known is False:
                return i, fname, current
            if known is None or i == len(names) - 1:
                return None
            nxt = self.comodel(current, fname)
            if nxt is None:
                return None  # not relational, or its comodel unknown: nothing more to claim
            current = nxt
        return None


def _merge(earlier: FieldDef, later: FieldDef) -> FieldDef:
    """A redefinition (``parent_id = fields.Many2one(tracking=True)``) changes attributes; what it
    does not repeat (the comodel, the inverse, the relation) stays from the earlier one."""
    return dataclasses.replace(
        later,
        comodel=later.comodel or earlier.comodel,
        inverse_name=later.inverse_name or earlier.inverse_name,
        related=later.related or earlier.related,
        type=later.type if later.type == earlier.type or not earlier.type else earlier.type,
    )


@functools.lru_cache(maxsize=4)
def base_model_methods(base_addon: Path | None) -> frozenset[str]:
    """Method names of ``BaseModel`` read from an Odoo source (``odoo/models.py`` beside the
    ``base`` addon's ``odoo/addons``), empty when there is none."""
    if base_addon is None:
        return frozenset()
    source = base_addon.parent.parent / "models.py"
    tree = python_tree(source)
    if tree is None:
        return frozenset()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in ("BaseModel", "Model", "AbstractModel"):
            names.update(f.name for f in node.body if isinstance(f, ast.FunctionDef))
    return frozenset(names)
