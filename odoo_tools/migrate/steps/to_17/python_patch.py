"""16.0 -> 17.0: ``BaseModel._patch_method``/``_revert_method`` are gone. A call of them is
rewritten into a call of a function the file gets, with 16.0's own body (odoo/models.py):

    origin = getattr(cls, name); method.origin = origin
    wrapped = api.propagate(origin, method); wrapped.origin = origin; setattr(cls, name, wrapped)

``api.propagate`` only copied ``_returns`` onto the method and returned it, and ``cls`` was the
class of the record or model class it was called on: so ``model._patch_method(n, m)`` becomes
``_patch_method(model, n, m)`` and the module patches as it did (OCA's own 17.0 port of
base_name_search_improved did the same with ``setattr(type(model), ...)``). The patch itself
is still a warning: the method it replaces may have other parameters in 17.0. A use that is not
such a call (``super()._patch_method``, a module with its own ``_patch_method``) stays an error."""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, string_value
from odoo_tools.migrate.engine.report import Site

PATCH, REVERT = "_patch_method", "_revert_method"
_HELPERS = {
    PATCH: '''def _patch_method(model, name, method):
    """BaseModel._patch_method of Odoo 16.0 (gone in 17.0): replace the method ``name`` of the
    model's class by ``method``, which reaches the replaced one as ``method.origin``."""
    cls = model if isinstance(model, type) else type(model)
    origin = getattr(cls, name)
    method.origin = origin
    if hasattr(origin, "_returns") and not hasattr(method, "_returns"):
        method._returns = origin._returns
    setattr(cls, name, method)
''',
    REVERT: '''def _revert_method(model, name):
    """BaseModel._revert_method of Odoo 16.0 (gone in 17.0): undo ``_patch_method``."""
    cls = model if isinstance(model, type) else type(model)
    setattr(cls, name, getattr(cls, name).origin)
''',
}
_CHANGE_IDS = {PATCH: "removed-patch-method", REVERT: "removed-revert-method"}


class PatchMethod(PythonRule):
    rule = "removed-patch-method"
    triggers = (PATCH, REVERT)

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self._taken: set[str] = set()  # names the file itself defines or imports
        self._needed: set[str] = set()
        self._calls: set[int] = set()  # ids of the attributes a rewritten call holds

    def visit_Module(self, node: cst.Module) -> None:
        for statement in node.body:
            self._taken |= _defined_names(statement)
        for name in (PATCH, REVERT):
            if re.search(rf"\bdef\s+{name}\s*\(", node.code):  # a method of its own of that name
                self._taken.add(name)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _HELPERS:
            return
        if func.attr.value in self._taken or _is_super(func.value):
            return
        self._calls.add(id(func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = node.attr.value
        if name in _HELPERS and id(node) not in self._calls:
            self.find_change(node, _CHANGE_IDS[name])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not isinstance(func, cst.Attribute) or id(func) not in self._calls:
            return updated
        name = func.attr.value
        self._needed.add(name)
        self.site.report.count(_CHANGE_IDS[name])
        if name == PATCH:
            self._say_patched(original)
        # on a line of its own when the arguments are (one per line after the opening parenthesis)
        opening = updated.whitespace_before_args
        space = opening if isinstance(opening, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
        target = cst.Arg(value=func.value, comma=cst.Comma(whitespace_after=space))
        return updated.with_changes(func=cst.Name(name), args=[target, *updated.args])

    def _say_patched(self, call: cst.Call) -> None:
        method = string_value(call.args[0].value) if call.args else None
        what = f"{method}()" if method else "the method"
        self.find(
            call,
            f"The module replaces {what} of a model at runtime (BaseModel._patch_method, gone in 17.0); "
            "the call now goes to the same code, added to this file.",
            f"Check that the replacing function takes {what}'s 17.0 parameters, or turn the patch into "
            "an override in a model class.",
        )

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self._needed:
            return updated
        two_blank_lines = [cst.EmptyLine(), cst.EmptyLine()]
        helpers = [
            statement.with_changes(leading_lines=two_blank_lines)
            for name in (PATCH, REVERT)
            if name in self._needed
            for statement in cst.parse_module(_HELPERS[name]).body
        ]
        body = list(updated.body)
        at = _after_imports(body)
        if at < len(body):
            kept = list(body[at].leading_lines)  # its comments stay, under the helpers
            while kept and kept[0].comment is None:
                kept.pop(0)
            body[at] = body[at].with_changes(leading_lines=[*two_blank_lines, *kept])
        result = updated.with_changes(body=[*body[:at], *helpers, *body[at:]])
        if at < len(body):
            added = result.code.count("\n") - updated.code.count("\n")
            self._shift_findings(self.line(original.body[at]), added)
        return result

    def _shift_findings(self, below: int, count: int) -> None:
        """The file's findings so far, at their lines once the helpers are in."""
        report = self.site.report
        for i, finding in enumerate(report.findings):
            if finding.path == self.site.path and finding.line is not None and finding.line >= below:
                report.findings[i] = finding.model_copy(update={"line": finding.line + count})


def _is_super(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "super"


def _defined_names(statement: cst.CSTNode) -> set[str]:
    if isinstance(statement, cst.FunctionDef | cst.ClassDef):
        return {statement.name.value}
    names: set[str] = set()
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if isinstance(small, cst.Import | cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                names |= {_bound_name(alias) for alias in small.names}
            elif isinstance(small, cst.Assign):
                names |= {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
    return names


def _bound_name(alias: cst.ImportAlias) -> str:
    """The name an import binds: its ``as`` name, else the first part of the dotted name."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return cst.Module([]).code_for_node(alias.name).split(".")[0]


def _after_imports(body: Sequence[cst.BaseStatement]) -> int:
    """The index after the file's leading imports (and docstring, ``__future__`` lines)."""
    at = 0
    for i, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(small, cst.Import | cst.ImportFrom)
            or (isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString))
            for small in statement.body
        ):
            at = i + 1
        else:
            break
    return at
