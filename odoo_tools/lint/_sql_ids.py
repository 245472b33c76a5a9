"""pylint-odoo's ``sql-injection`` cannot tell what is interpolated. When every value formatted
into the query at the reported line is a record id (``x.id``, ``int(...)``, a number, or a local
name only ever assigned such a value), the query cannot be injected: not a security error."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


def ids_only(path: Path, line: int) -> bool:
    tree = _tree(path)
    if tree is None:
        return False
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and _spans(function, line):
            calls = [n for n in ast.walk(function) if _is_execute(n) and _spans(n, line)]
            formats = [n for call in calls for n in ast.walk(call) if _is_format(n)]
            return bool(formats) and all(_safe(value, function) for f in formats for value in _values(f))
    return False


@functools.lru_cache(maxsize=64)
def _tree(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None


def _spans(node: ast.AST, line: int) -> bool:
    start, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0) or 0
    return start <= line <= end


def _is_execute(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "execute"


def _is_format(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left)


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _values(node: ast.AST) -> list[ast.expr]:
    assert isinstance(node, ast.BinOp)
    right = node.right
    return list(right.elts) if isinstance(right, ast.Tuple) else [right]


def _safe(value: ast.expr, function: ast.AST, depth: int = 0) -> bool:
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
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
