"""Overrides of core methods whose parameters the step changed, read from the two series' sources.

A parameter the step took away leaves the override's signature and its ``super()`` call (Odoo no
longer passes it and the core method no longer takes it: "takes from 1 to 3 positional arguments
but 4 were given"), and the override reads the default it always got. OCA account_move_name_sequence
overrode 16.0's ``_get_last_sequence(relaxed, with_prefix, lock=True)``, which 17.0 calls without
``lock``. A parameter the step added after the old ones joins the override's signature with core's
default and is passed on to ``super()`` (19.0 calls ``_notify_get_reply_to(default, author_id=...)``:
an 18.0 override "got an unexpected keyword argument 'author_id'"). A method the new series
annotates ``-> Domain`` (a list before) gets ``Domain(...)`` around what the override returns (19.0's
ir.rule ``_compute_domain``: "'list' object has no attribute 'optimize_full'").
"""

from __future__ import annotations

import re

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_params import (
    EQUAL,
    followed_by,
    names_in,
    takes_exactly,
)
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, metadata_of, python_modules, transform
from odoo_tools.migrate.engine.python_rules import VariableNames, class_model
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.override_signatures import (
    ADDED,
    Override,
    with_added,
    with_renamed,
    without_gone,
)
from odoo_tools.migrate.passes.patched_methods import PATCHING, patched_functions
from odoo_tools.migrate.passes.signature_changes import (
    added_parameters,
    changed_parameters,
    removed_parameters,
    renamed_parameters,
    returns_domain,
)
from odoo_tools.migrate.passes.signatures import CoreMethods, core_methods, signature_changes

DOMAIN = "domain-return-value"
_DEFINED = re.compile(r"\bdef[\s\\]+(\w+)")  # the names a file defines functions of
_STRINGS = re.compile(r"[\"']([\w.]+)[\"']")  # the plain strings of a file ("sale.order")


def drop_removed_parameters(
    files: ModuleFiles, report: StepReport, old_source: CoreSource, new_source: CoreSource
) -> None:
    old, new = core_methods(old_source), core_methods(new_source)

    renamed = renamed_parameters(report.target_series)
    changes = signature_changes(old, new)

    def wanted(rel: str, text: str) -> bool:
        if rel.startswith(("migrations/", "upgrades/")) or "def " not in text:
            return False
        if any(f"{name}(" in text for name in PATCHING):
            return True  # a function patched in overrides a method its own name does not say
        # an override matters only when its model's method changed its signature or the step
        # renamed a parameter of it. Its model is a string of the file (_name, _inherit), so a
        # cheap look at the names defined and the strings spares walking the other files' trees
        defined = set(_DEFINED.findall(text))
        if any(name in renamed for name in defined):
            return True
        models = {"", *_STRINGS.findall(text)}
        return any(changes.changed(models, name) for name in defined)

    for rel, module in python_modules(files, wanted):
        wrapper = metadata_of(module)
        rewriter = _Overrides(old, new, report, files.site_path(rel))
        rewriter.renamed = renamed
        if any(f"{name}(" in files.texts[rel] for name in PATCHING):  # else nothing is patched in
            rewriter.patched = patched_functions(wrapper.module)
        rewritten = transform(wrapper.module, rewriter, wrapper)
        if rewriter.wrapped:
            context = CodemodContext()
            AddImportsVisitor.add_needed_import(context, "odoo.fields", "Domain")
            rewritten = AddImportsVisitor(context).transform_module(rewritten)
        keep_rewrite(files, rel, module, rewritten)


class _Overrides(VariableNames):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, old: CoreMethods, new: CoreMethods, report: StepReport, path: str) -> None:
        super().__init__()
        self.old, self.new, self.report, self.path = old, new, report, path
        self._models: list[str] = []
        self._in_class: list[bool] = []  # per scope: a class body (True) or a function (False)
        self._functions: list[Override | None] = []
        self._own: list[bool] = []  # per function: the override itself (not a function inside it)
        self.wrapped = False
        self.renamed: dict[str, dict[str, str]] = {}  # method -> parameters the step renamed
        self.patched: dict[int, str] = {}  # ids of the functions patched in -> the method they replace

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
        override = self._override(node, self._models[-1], node.name.value) if method else None
        if id(node) in self.patched:
            override = self._override(node, "base", self.patched[id(node)])
            if override is not None:
                override.patched = node.name.value
        self._in_class.append(False)
        self._own.append(override is not None)
        self._functions.append(override or (self._functions[-1] if self._functions else None))

    def _override(self, node: cst.FunctionDef, model: str, method: str) -> Override | None:
        old, new = self.old.lookup(model, method), self.new.lookup(model, method)
        if old is None or new is None:
            return None
        mine = {p.name.value: p for p in (*node.params.params, *node.params.kwonly_params)}
        gone = [p for p in removed_parameters(old, new) if p in mine]
        added = added_parameters(old, new) if takes_exactly(node.params, old.params) else {}
        change = changed_parameters(old, new, self.renamed.get(method, {}))
        renamed: dict[str, str] = {}
        if change is not None and takes_exactly(node.params, old.params):
            gone, added, renamed = list(change.gone), change.added, change.renamed
        used = {name for name in added if name in names_in(node.body)}
        if used:
            added = {}
            self._say_name_taken(node, method, used)
        domain = returns_domain(old, new)
        if not gone and not added and not domain and not renamed:
            return None
        defaults = {}
        for name in gone:
            default = mine[name].default
            defaults[name] = (
                cst.Module([]).code_for_node(default) if default is not None else old.default(name)
            )
        positions = tuple(old.params.index(p) for p in gone)
        kept_names = any(name in names_in(node.body) for name in renamed.values())
        return Override(method, defaults, positions, added, domain, renamed=renamed, kept_names=kept_names)

    def _say_name_taken(self, node: cst.FunctionDef, method: str, used: set[str]) -> None:
        names = ", ".join(sorted(used))
        self.report.find(
            ADDED, self.path, self.get_metadata(PositionProvider, node).start.line,
            f"{method}() takes {names} in {self.report.target_series} and Odoo passes it: this override "
            f"uses a name {names} of its own, which the parameter would hide, so it was left as written.",
            f"Rename the override's own {names}, then add the parameter and pass it on to super().",
        )  # fmt: skip

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self._in_class.pop()
        self._own.pop()
        override = self._functions.pop()
        outer = self._functions[-1] if self._functions else None
        if override is None or override is outer:
            return updated
        line = self.get_metadata(PositionProvider, original).start.line
        if override.wrapped:
            self.report.count(DOMAIN)
            self.report.find(
                DOMAIN, self.path, line,
                f"{override.method}() returns a Domain in {self.report.target_series} and its callers use "
                "it as one: what this override returns is wrapped in Domain(...).",
                "Build the domain with Domain operators (&, |, ~) instead of lists where you touch it.",
            )  # fmt: skip
        if override.gone:
            updated_or_none = without_gone(updated, override, line, self.report, self.path)
            if updated_or_none is None:
                return original
            updated = updated_or_none
        if override.renamed:
            updated = with_renamed(updated, override, line, self.report, self.path)
        if override.added:
            updated = with_added(updated, override, line, self.report, self.path)
        return updated

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        override = self._functions[-1] if self._functions else None
        if override is None or not override.domain or not self._own[-1] or updated.value is None:
            return updated
        value = updated.value
        if isinstance(value, cst.Call) and _called(value) in ("Domain", override.method):
            return updated  # already a Domain, or super()'s: a Domain on the new series
        override.wrapped += 1
        self.wrapped = True
        return updated.with_changes(value=cst.Call(func=cst.Name("Domain"), args=[cst.Arg(value)]))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        override = self._functions[-1] if self._functions else None
        if override is None or not self.is_variable(original):
            return updated
        if updated.value in override.renamed and not override.kept_names:
            return updated.with_changes(value=override.renamed[updated.value])
        default = override.gone.get(updated.value)
        return cst.parse_expression(default) if default is not None else updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        override = self._functions[-1] if self._functions else None
        if override is None or not _calls_replaced(updated.func, override):
            return updated
        override.passed_on += 1
        positional = [i for i, a in enumerate(updated.args) if a.keyword is None and not a.star]
        positional = positional[1:] if override.patched else positional  # .origin(self, ...)
        dropped = [positional[p] for p in override.positions if p < len(positional)]
        dropped += [i for i, a in enumerate(updated.args) if a.keyword and a.keyword.value in override.gone]
        kept = [
            a.with_changes(keyword=cst.Name(override.renamed[a.keyword.value]))
            if a.keyword is not None and a.keyword.value in override.renamed
            else a
            for i, a in enumerate(updated.args)
            if i not in dropped
        ]
        if kept and updated.args and len(updated.args) - 1 in dropped:
            last = updated.args[-1]
            kept[-1] = kept[-1].with_changes(comma=last.comma, whitespace_after_arg=last.whitespace_after_arg)
        if override.added and not any(a.star == "**" for a in kept):
            passed = {a.keyword.value for a in kept if a.keyword is not None}
            new_args = [
                cst.Arg(keyword=cst.Name(name), value=cst.Name(name), equal=EQUAL)
                for name in override.added
                if name not in passed
            ]
            kept = followed_by(kept, new_args, updated.whitespace_before_args)
        return updated.with_changes(args=kept)


def _calls_replaced(func: cst.BaseExpression, override: Override) -> bool:
    """``super().method`` in an override; ``function.origin`` in a function patched in."""
    if not isinstance(func, cst.Attribute):
        return False
    if override.patched:
        return (
            func.attr.value == "origin"
            and isinstance(func.value, cst.Name)
            and func.value.value == override.patched
        )
    inner = func.value
    return (
        func.attr.value == override.method
        and isinstance(inner, cst.Call)
        and isinstance(inner.func, cst.Name)
        and inner.func.value == "super"
    )


def _called(call: cst.Call) -> str:
    """``Domain(...)`` -> "Domain"; ``super().m(...)`` -> "m"; else ''."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
        inner = func.value.func
        if isinstance(inner, cst.Name) and inner.value == "super":
            return func.attr.value
    return ""
