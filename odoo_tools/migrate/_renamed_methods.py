"""Core methods a step renamed, told by the two series' signatures: the old name is gone from
the model, the new one has exactly its parameters and differs only by a leading underscore
(``price_compute`` in 16.0 is ``_price_compute`` in 17.0, same parameters). An override of the old
name is never called by the new series and its ``super()`` fails: the module's overrides and, in
the same file, ``self.``/``super().`` calls take the new name."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from odoo_tools.migrate._module_files import ModuleFiles
from odoo_tools.migrate._python_rules import class_model
from odoo_tools.migrate._report import StepReport
from odoo_tools.migrate._signatures import CoreMethods, core_methods

RULE = "renamed-core-method"


def rename_core_methods(files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path) -> None:
    old, new = core_methods(old_source), core_methods(new_source)
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or "def " not in text:
            continue
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        renamed = _renames(module, old, new)
        if renamed:
            files.texts[rel] = (
                MetadataWrapper(module).visit(_Renamer(renamed, report, files.site_path(rel))).code
            )


def renamed_to(old: CoreMethods, new: CoreMethods, model: str, method: str) -> str | None:
    before = old.lookup(model, method)
    if before is None or new.lookup(model, method) is not None or not new.knows(model):
        return None
    for candidate in (f"_{method}", method.removeprefix("_")):
        after = new.lookup(model, candidate) if candidate != method else None
        if after is not None and old.lookup(model, candidate) is None and after.params == before.params:
            return candidate
    return None


def _renames(module: cst.Module, old: CoreMethods, new: CoreMethods) -> dict[str, str]:
    found: dict[str, str] = {}
    for statement in module.body:
        if not isinstance(statement, cst.ClassDef):
            continue
        model = class_model(statement)
        for item in statement.body.body if model else ():
            if isinstance(item, cst.FunctionDef) and (
                new_name := renamed_to(old, new, model, item.name.value)
            ):
                found[item.name.value] = new_name
    return found


class _Renamer(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, renamed: dict[str, str], report: StepReport, path: str) -> None:
        super().__init__()
        self.renamed, self.report, self.path = renamed, report, path

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
