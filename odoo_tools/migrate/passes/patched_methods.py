"""Functions of a module that take the place of a core model method at runtime, so Odoo calls them
with that method's parameters: ``model._patch_method("name", f)`` (16.0's BaseModel method),
``_patch_method(model, "name", f)`` (what the 17.0 step turns it into) and
``setattr(cls, "name", f)``, where ``f`` is a function of the file or a call of one that returns a
function it defines inside (a fresh copy per model: ``patch_name_search()``)."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import string_value

PATCHING = ("_patch_method", "setattr")


def patched_functions(module: cst.Module) -> dict[int, str]:
    """id of each such FunctionDef of ``module`` -> the name of the method it replaces."""
    finder = _Finder()
    module.visit(finder)
    found: dict[int, str] = {}
    for method, function in finder.patches:
        node = _function_of(function, finder.top)
        if node is not None:
            found[id(node)] = method
    return found


class _Finder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.top: dict[str, cst.FunctionDef] = {}  # the file's module-level functions
        self.patches: list[tuple[str, cst.BaseExpression]] = []  # (method, the function expression)
        self._depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._depth == 0:
            self.top[node.name.value] = node
        self._depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._depth -= 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        if len(args) != len(node.args):
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "_patch_method" and len(args) == 2:
            method, function = args
        elif isinstance(func, cst.Name) and func.value in PATCHING and len(args) == 3:
            method, function = args[1], args[2]
        else:
            return
        name = string_value(method)
        if name and name.isidentifier():
            self.patches.append((name, function))


def _function_of(node: cst.BaseExpression, top: dict[str, cst.FunctionDef]) -> cst.FunctionDef | None:
    """``f`` -> the file's function f; ``make()`` -> the function make defines and returns."""
    if isinstance(node, cst.Name):
        return top.get(node.value)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and not node.args):
        return None
    maker = top.get(node.func.value)
    if maker is None or not isinstance(maker.body, cst.IndentedBlock):
        return None
    inner = {s.name.value: s for s in maker.body.body if isinstance(s, cst.FunctionDef)}
    returned = [
        small.value
        for statement in maker.body.body
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
        if isinstance(small, cst.Return)
    ]
    if len(returned) == 1 and isinstance(returned[0], cst.Name):
        return inner.get(returned[0].value)
    return None
