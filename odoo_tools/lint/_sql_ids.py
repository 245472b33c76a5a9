"""pylint-odoo's ``sql-injection`` cannot tell what is interpolated. When every value formatted
into the query at the reported line is a record id (``x.id``, ``int(...)``, a number, a boolean,
or a local name only ever assigned such a value), or goes through a numeric placeholder (``%d``),
the query cannot be injected: not a security error. The query may be formatted in the call, in
an f-string, or first into a local variable the call passes."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from odoo_tools.sources import python_tree


def ids_only(path: Path, line: int) -> bool:
    tree = _tree(path)
    if tree is None:
        return False
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and _spans(function, line):
            calls = [n for n in ast.walk(function) if _is_execute(n) and _spans(n, line)]
            queries = [q for call in calls for q in _queries(call, function)]
            formats = [n for query in queries for n in ast.walk(query) if _is_format(n)]
            return bool(formats) and all(_safe(value, function) for f in formats for value in _values(f))
    return False


def _queries(call: ast.AST, function: ast.AST) -> list[ast.AST]:
    """The call itself, plus what its query argument was assigned when it is a local name."""
    assert isinstance(call, ast.Call)
    found: list[ast.AST] = [call]
    if call.args and isinstance(call.args[0], ast.Name):
        found += _assigned(call.args[0].id, function)
    return found


def _assigned(name: str, function: ast.AST) -> list[ast.expr]:
    values: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            values.append(node.value)
    return values


@functools.lru_cache(maxsize=64)
def _tree(path: Path) -> ast.Module | None:
    return python_tree(path)


def _spans(node: ast.AST, line: int) -> bool:
    start, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0) or 0
    return start <= line <= end


def _is_execute(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "execute"


def _is_format(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.FormattedValue) for part in node.values)
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left)


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# A %-conversion: flags, width, precision, then the type; %% is no placeholder.
_PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?([diouxXeEfFgGcrsa%])")
_NUMERIC = set("diouxXeEfFgG")


def _values(node: ast.AST) -> list[ast.expr]:
    """The values that reach the query as text: a numeric placeholder (``%d``) turns anything
    else into a TypeError, never into SQL."""
    if isinstance(node, ast.JoinedStr):
        return [part.value for part in node.values if isinstance(part, ast.FormattedValue)]
    assert isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant)
    right = node.right
    values = list(right.elts) if isinstance(right, ast.Tuple) else [right]
    kinds = [kind for kind in _PLACEHOLDER.findall(str(node.left.value)) if kind != "%"]
    if len(kinds) != len(values):
        return values  # a mapping, or a mismatch: judge every value
    return [value for kind, value in zip(kinds, values, strict=True) if kind not in _NUMERIC]


def _safe(value: ast.expr, function: ast.AST, depth: int = 0) -> bool:
    if isinstance(value, ast.Constant):
        return value.value is None or isinstance(value.value, (int, float))  # bool too: True/False
    if isinstance(value, ast.Attribute):
        return value.attr == "id"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id in ("int", "len", "float")
    if isinstance(value, ast.Name) and depth < 3:
        assigned = [
            node.value
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets)
        ]
        return bool(assigned) and all(_safe(v, function, depth + 1) for v in assigned)
    return False
