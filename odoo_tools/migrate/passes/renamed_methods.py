"""Core methods a step renamed, told by the two series' signatures: the old name is gone from
the model, the new one has exactly its parameters and differs only by a leading underscore
(``price_compute`` in 16.0 is ``_price_compute`` in 17.0, same parameters). An override of the old
name is never called by the new series and its ``super()`` fails: the module's overrides and, in
the same file, ``self.``/``super().`` calls take the new name; a method renamed on every model
that had it takes its new name in every call of the module (its tests call it on records)."""

from __future__ import annotations

import functools
import re
from collections import defaultdict

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.lint import core_graph
from odoo_tools.migrate.engine.core_closure import manifest_depends
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import class_model
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.signatures import CoreMethods, core_methods

RULE = "renamed-core-method"
_DEF = re.compile(r"^\s*def\s+(\w+)\s*\(", re.MULTILINE)
# A method of one of these is not a record's: its name is never taken for a renamed core method
_PLAIN_TYPES = (object, str, bytes, int, float, list, tuple, dict, set, frozenset)


def rename_core_methods(
    files: ModuleFiles, report: StepReport, old_source: CoreSource, new_source: CoreSource
) -> None:
    old, new = core_methods(old_source), core_methods(new_source)
    for rel, module in python_modules(files, lambda _rel, text: "def " in text):
        renamed = _renames(module, old, new)
        if renamed:
            renamer = _Renamer(renamed, report, files.site_path(rel))
            keep_rewrite(files, rel, module, transform(module, renamer))
    rename_calls(files, report, renamed_everywhere(old_source, new_source))


@functools.cache
def _renamed_everywhere(old_source: CoreSource, new_source: CoreSource) -> tuple[tuple[str, str], ...]:
    old, new = core_methods(old_source), core_methods(new_source)
    by_name: dict[str, set[str]] = defaultdict(set)
    for model, method in old.methods:
        by_name[method].add(model)
    still = {method for _, method in new.methods}
    found = []
    for method, models in sorted(by_name.items()):
        if method in still or any(hasattr(kind, method) for kind in _PLAIN_TYPES):
            continue
        targets = {renamed_to(old, new, model, method) for model in models}
        if len(targets) == 1 and None not in targets:
            found.append((method, str(targets.pop())))
    return tuple(found)


def renamed_everywhere(old_source: CoreSource, new_source: CoreSource) -> dict[str, str]:
    """Old name -> new name of the core methods renamed on every model that had them, whose old
    name no model of the new core has any more (``price_compute`` of product.product and
    product.template): a call of it on any record fails there, whatever the record's model."""
    return dict(_renamed_everywhere(old_source, new_source))


def rename_calls(files: ModuleFiles, report: StepReport, renamed: dict[str, str]) -> None:
    """``x.price_compute(...)`` anywhere in the module (its tests call it on their records): the
    old name exists on no model any more, and a name of that kind (no method of a plain Python
    type) is a record's. Not when the module defines a function of that name itself, nor when it
    depends on a module outside the core (which may define one)."""
    depends = manifest_depends(files)
    core = core_graph(f"{report.source}").depends
    if depends is None or any(name not in core for name in depends):
        return
    own = {
        m.group(1) for rel, text in files.texts.items() if rel.endswith(".py") for m in _DEF.finditer(text)
    }
    wanted = {name: new for name, new in renamed.items() if name not in own}
    for rel, module in python_modules(files, lambda _rel, text: any(f".{name}(" in text for name in wanted)):
        renamer = _CallRenamer(wanted, report, files.site_path(rel))
        keep_rewrite(files, rel, module, transform(module, renamer))


def renamed_to(old: CoreMethods, new: CoreMethods, model: str, method: str) -> str | None:
    before = old.lookup(model, method)
    if before is None or new.lookup(model, method) is not None or not new.knows(model):
        return None
    for candidate in (f"_{method}", method.removeprefix("_")):
        after = new.lookup(model, candidate) if candidate != method else None
        if after is not None and old.lookup(model, candidate) is None and after.params == before.params:
            return candidate
    return None


def _renames(module: cst.Module, old: CoreMethods, new: CoreMethods) -> dict[str, dict[str, str]]:
    """Per class of the file (by name): its overrides of renamed core methods, old -> new name."""
    found: dict[str, dict[str, str]] = {}
    for statement in module.body:
        if not isinstance(statement, cst.ClassDef):
            continue
        model = class_model(statement)
        for item in statement.body.body if model else ():
            if isinstance(item, cst.FunctionDef) and (
                new_name := renamed_to(old, new, model, item.name.value)
            ):
                found.setdefault(statement.name.value, {})[item.name.value] = new_name
    return found


class _Renamer(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, renamed: dict[str, dict[str, str]], report: StepReport, path: str) -> None:
        super().__init__()
        self.by_class, self.report, self.path = renamed, report, path
        self.renamed: dict[str, str] = {}  # the renames of the class being visited (only its own)
        self._outer: list[dict[str, str]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._outer.append(self.renamed)
        self.renamed = self.by_class.get(node.name.value, {}) if not self._outer[:-1] else self.renamed

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.renamed = self._outer.pop()
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        new_name = self.renamed.get(updated.name.value)
        if new_name is None:
            return updated
        line = self.get_metadata(PositionProvider, original).start.line
        self.report.count(RULE)
        self.report.find(
            RULE, self.path, line,
            f"{updated.name.value}() is {new_name}() in {self.report.target_series} (the same "
            "parameters): this override and the calls of this file were renamed.",
            f"Other modules calling {updated.name.value}() need the new name too.",
        )  # fmt: skip
        return updated.with_changes(name=cst.Name(new_name))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        """Only ``self.m`` and ``super().m``: the record is surely that model (a ``get`` renamed
        on ir.default must not touch ``values.get``)."""
        new_name = self.renamed.get(updated.attr.value)
        owner = updated.value
        is_self = isinstance(owner, cst.Name) and owner.value == "self"
        is_super = (
            isinstance(owner, cst.Call) and isinstance(owner.func, cst.Name) and owner.func.value == "super"
        )
        return (
            updated.with_changes(attr=cst.Name(new_name)) if new_name and (is_self or is_super) else updated
        )


class _CallRenamer(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, renamed: dict[str, str], report: StepReport, path: str) -> None:
        super().__init__()
        self.renamed, self.report, self.path = renamed, report, path

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        new_name = self.renamed.get(func.attr.value) if isinstance(func, cst.Attribute) else None
        if new_name is None or not isinstance(func, cst.Attribute):
            return updated
        line = self.get_metadata(PositionProvider, original).start.line
        self.report.count(RULE)
        self.report.find(
            RULE, self.path, line,
            f"{func.attr.value}() is {new_name}() in {self.report.target_series} on every model that had "
            "it (the same parameters): this call was renamed.",
            "Check that the call is on a record (not another object with a method of that name).",
        )  # fmt: skip
        return updated.with_changes(func=func.with_changes(attr=cst.Name(new_name)))
