"""The line of a manifest entry, from the manifest's syntax tree: ``depends`` -> ``"stock"`` or
``external_dependencies`` -> ``python`` -> ``"requests"``. A text search would stop at the first
mention of the name, which may be inside the description."""

from __future__ import annotations

import ast
from pathlib import Path

from odoo_tools.storage import read_capped_text


def manifest_entry_line(manifest: Path, key: str, value: str = "", sub_key: str = "") -> int | None:
    """Line of ``value`` in the list at ``manifest[key]`` (or ``manifest[key][sub_key]``); the line
    of ``key`` itself when the value is not found there; None when the key is absent or the file
    cannot be parsed."""
    try:
        tree = ast.parse(read_capped_text(manifest) or "", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree.body, ast.Dict):
        return None
    entry = _item(tree.body, key)
    if entry is None:
        return None
    key_node, node = entry
    if sub_key and isinstance(node, ast.Dict):
        inner = _item(node, sub_key)
        node = inner[1] if inner is not None else node
    for element in _elements(node):
        if isinstance(element, ast.Constant) and element.value == value:
            return element.lineno
    return key_node.lineno


def _item(node: ast.Dict, key: str) -> tuple[ast.expr, ast.expr] | None:
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        if isinstance(key_node, ast.Constant) and key_node.value == key:
            return key_node, value_node
    return None


def _elements(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return list(node.elts)
    if isinstance(node, ast.Dict):  # {"python": [...], "bin": [...]} without a sub key: every list
        return [e for value in node.values for e in _elements(value)]
    return []
