"""A field declared in a model class, read by AST only: ``name = fields.Type(...)`` with its
comodel, inverse, string, flags, stored or not and selection keys, where they are literals."""

from __future__ import annotations

import ast
from typing import Any

from odoo_tools.index._records import FieldDef

_RELATIONAL = ("Many2one", "One2many", "Many2many", "Many2oneReference")
_TEXT_ATTRS = ("related", "compute", "inverse", "search", "string")
_FLAG_ATTRS = ("required", "readonly")


def assignment(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    return None, None


def field_def(stmt: ast.stmt) -> FieldDef | None:
    """``name = fields.Type(...)`` at class level."""
    target, value = assignment(stmt)
    if not target or not isinstance(value, ast.Call) or target.startswith("__"):
        return None
    func = value.func
    if not (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "fields"
    ):
        return None
    kwargs = {kw.arg: kw.value for kw in value.keywords if kw.arg}
    args = value.args
    ftype = func.attr
    comodel = _kw_or_arg(kwargs, args, "comodel_name", 0) if ftype in _RELATIONAL else ""
    inverse_name = _kw_or_arg(kwargs, args, "inverse_name", 1) if ftype == "One2many" else ""
    string_pos = {"Many2one": 1, "Many2many": 4, "One2many": 2}.get(ftype, 0)
    if ftype == "Selection":
        string_pos = 1
    values: dict[str, Any] = {a: _const_text(kwargs.get(a)) for a in _TEXT_ATTRS}
    values["string"] = values["string"] or _kw_or_arg({}, args, "", string_pos)
    values.update({a: const_bool(kwargs.get(a)) is True for a in _FLAG_ATTRS})
    return FieldDef(
        name=target,
        type=ftype,
        line=stmt.lineno,
        comodel=comodel,
        inverse_name=inverse_name,
        store=const_bool(kwargs.get("store")),
        selection=_selection_keys(
            kwargs.get("selection") or (args[0] if ftype == "Selection" and args else None)
        ),
        selection_add=_selection_keys(kwargs.get("selection_add")),
        **values,
    )


def _kw_or_arg(kwargs: dict[str, ast.expr], args: list[ast.expr], key: str, position: int) -> str:
    node = kwargs.get(key) if key else None
    if node is None and len(args) > position:
        node = args[position]
    return _const_text(node)


def _const_text(node: ast.expr | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ""


def const_bool(node: ast.expr | None) -> bool | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return node.value
    return None


def _selection_keys(node: ast.expr | None) -> tuple[str, ...]:
    if not isinstance(node, (ast.List, ast.Tuple)):
        return ()
    keys = []
    for item in node.elts:
        if isinstance(item, (ast.Tuple, ast.List)) and item.elts:
            key = item.elts[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                keys.append(key.value)
    return tuple(keys)
