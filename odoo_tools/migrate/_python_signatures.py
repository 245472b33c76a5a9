"""Overrides of core methods whose parameter the step took away, read from the two series'
sources: the parameter leaves the override's signature and its ``super()`` call (Odoo no longer
passes it and the core method no longer takes it: "takes from 1 to 3 positional arguments but 4
were given"), and the override reads the default it always got. OCA account_move_name_sequence
overrode 16.0's ``_get_last_sequence(relaxed, with_prefix, lock=True)``, which 17.0 calls without
``lock``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from odoo_tools.migrate._module_files import ModuleFiles
from odoo_tools.migrate._python_rules import VariableNames, class_model
from odoo_tools.migrate._report import StepReport
from odoo_tools.migrate._signatures import CoreMethods, core_methods, removed_parameters

RULE = "removed-method-parameter"


def drop_removed_parameters(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    old, new = core_methods(old_source), core_methods(new_source)
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or rel.startswith(("migrations/", "upgrades/")) or "def " not in text:
            continue
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue  # the rule pass already said so
        rewriter = _Overrides(old, new, report, files.site_path(rel))
        files.texts[rel] = MetadataWrapper(module).visit(rewriter).code


@dataclass
class _Override:
    method: str
    gone: dict[str, str | None]  # parameter -> the default the override reads instead (None: unknown)
    positions: tuple[int, ...]  # of the gone parameters in the core signature (super() arguments)


class _Overrides(VariableNames):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, old: CoreMethods, new: CoreMethods, report: StepReport, path: str) -> None:
        super().__init__()
        self.old, self.new, self.report, self.path = old, new, report, path
        self._models: list[str] = []
        self._in_class: list[bool] = []  # per scope: a class body (True) or a function (False)
        self._functions: list[_Override | None] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._models.append(class_model(node))
        self._in_class.append(True)
        self._functions.append(None)  # a class inside an override is not the override

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self._models.pop()
        self._in_class.pop()
        self._functions.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        method = bool(self._in_class) and self._in_class[-1] and bool(self._models[-1])
        override = self._override(node) if method else None
        self._in_class.append(False)
        self._functions.append(override or (self._functions[-1] if self._functions else None))

    def _override(self, node: cst.FunctionDef) -> _Override | None:
        model, method = self._models[-1], node.name.value
        old, new = self.old.lookup(model, method), self.new.lookup(model, method)
        if old is None or new is None:
            return None
        mine = {p.name.value: p for p in (*node.params.params, *node.params.kwonly_params)}
        gone = [p for p in removed_parameters(old, new) if p in mine]
        if not gone:
            return None
        defaults = {}
        for name in gone:
            default = mine[name].default
            defaults[name] = (
                cst.Module([]).code_for_node(default) if default is not None else old.default(name)
            )
        return _Override(method, defaults, tuple(old.params.index(p) for p in gone))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self._in_class.pop()
        override = self._functions.pop()
        outer = self._functions[-1] if self._functions else None
        if override is None or override is outer:
            return updated
        line = self.get_metadata(PositionProvider, original).start.line
        names = ", ".join(override.gone)
        if any(default is None for default in override.gone.values()):
            self.report.find(
                RULE, self.path, line,
                f"{override.method}() no longer takes {names} in {self.report.target_series}: Odoo "
                "calls this override without it and super() refuses it.",
                f"Remove {names} from the signature and the super() call, and decide what the code "
                "reading it should do.",
                severity="error",
            )  # fmt: skip
            return original
        self.report.count(RULE)
        self.report.find(
            RULE, self.path, line,
            f"{override.method}() no longer takes {names} in {self.report.target_series}: removed from "
            "this override and its super() call; the code reads the value Odoo always passed before ("
            + ", ".join(f"{n}={d}" for n, d in override.gone.items()) + ").",
            f"Check in the {self.report.target_series} source what replaced {names}.",
        )  # fmt: skip
        params = updated.params
        return updated.with_changes(
            params=params.with_changes(
                params=_without(params.params, override.gone),
                kwonly_params=_without(params.kwonly_params, override.gone),
            )
        )

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        override = self._functions[-1] if self._functions else None
        if override is None or not self.is_variable(original):
            return updated
        default = override.gone.get(updated.value)
        return cst.parse_expression(default) if default is not None else updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        override = self._functions[-1] if self._functions else None
        func = updated.func
        if override is None or not (isinstance(func, cst.Attribute) and func.attr.value == override.method):
            return updated
        if not (isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name)):
            return updated
        if func.value.func.value != "super":
            return updated
        positional = [i for i, a in enumerate(updated.args) if a.keyword is None and not a.star]
        dropped = [positional[p] for p in override.positions if p < len(positional)]
        dropped += [i for i, a in enumerate(updated.args) if a.keyword and a.keyword.value in override.gone]
        kept = [a for i, a in enumerate(updated.args) if i not in dropped]
        if kept and updated.args and len(updated.args) - 1 in dropped:
            kept[-1] = kept[-1].with_changes(comma=updated.args[-1].comma)
        return updated.with_changes(args=kept)


def _without(params: Sequence[cst.Param], gone: dict[str, str | None]) -> list[cst.Param]:
    kept = [p for p in params if p.name.value not in gone]
    if kept and params and params[-1].name.value in gone:
        kept[-1] = kept[-1].with_changes(comma=params[-1].comma)
    return kept
