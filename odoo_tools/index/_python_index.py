"""Models, fields and methods from Python source, by AST only (nothing is imported or run).

A class counts as an Odoo model when it sets ``_name`` or ``_inherit``; its kind comes from its
base (``models.AbstractModel`` -> abstract, ``models.TransientModel`` -> transient).
"""

from __future__ import annotations

import ast
from typing import Any

from odoo_tools.findings import Finding
from odoo_tools.index._records import FieldDef, FileData, MethodDef, ModelClass

# Files without these bytes hold no model class: skip parsing them (most of a big tree).
MODEL_MARKERS = (b"_name", b"_inherit")
_KIND_BY_BASE = {"Model": "model", "AbstractModel": "abstract", "TransientModel": "transient"}
_RELATIONAL = ("Many2one", "One2many", "Many2many", "Many2oneReference")
_TEXT_ATTRS = ("related", "compute", "inverse", "string")
_FLAG_ATTRS = ("required", "readonly")


def parse_python(data: bytes, rel: str, module: str) -> FileData:
    """Index one Python file. A syntax error becomes a finding, never an exception."""
    if not any(marker in data for marker in MODEL_MARKERS):
        return FileData(path=rel, module=module, kind="python")
    try:
        tree = ast.parse(data, filename=rel)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        finding = Finding(
            source="index",
            code="python-syntax",
            module=module,
            path=rel,
            line=line,
            message=f"{rel} does not parse: {getattr(exc, 'msg', exc)}.",
            hint="Fix the syntax error; the file is left out of the code index until then.",
        )
        return FileData(path=rel, module=module, kind="python", findings=(finding,))
    models = tuple(m for node in _classes(tree) if (m := _model_class(node)) is not None)
    return FileData(path=rel, module=module, kind="python", models=models)


def _classes(tree: ast.Module) -> list[ast.ClassDef]:
    """Top-level classes, and classes nested in top-level ``if`` blocks (version switches)."""
    found: list[ast.ClassDef] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.ClassDef):
            found.append(node)
        elif isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body)
    return found


def _model_class(node: ast.ClassDef) -> ModelClass | None:
    attrs = _class_attrs(node)
    assigned = _assigned_names(node)
    name = attrs.get("_name")
    inherit = _names(attrs.get("_inherit"))
    if not isinstance(name, str):
        name = None
    if name is None and not inherit:
        return None
    model = name or inherit[0]
    inherits = attrs.get("_inherits")
    return ModelClass(
        model=model,
        class_name=node.name,
        line=node.lineno,
        kind="abstract" if attrs.get("_abstract") is True else _kind(node),
        defines=name is not None and name not in inherit,
        inherit=inherit,
        inherits=tuple(sorted(inherits.items())) if isinstance(inherits, dict) else (),
        description=_text(attrs.get("_description")),
        order=_text(attrs.get("_order")),
        rec_name=_text(attrs.get("_rec_name")),
        fields=tuple(f for stmt in node.body if (f := _field(stmt)) is not None),
        methods=tuple(_method(stmt) for stmt in node.body if isinstance(stmt, ast.FunctionDef)),
        described="_description" in assigned,
        registered=attrs.get("_register") is not False,
    )


def _assigned_names(node: ast.ClassDef) -> set[str]:
    """Every class attribute given a value, literal or not (``_description = __doc__``)."""
    names = set()
    for stmt in node.body:
        target, value = _assignment(stmt)
        if target and value is not None:
            names.add(target)
    return names


def _class_attrs(node: ast.ClassDef) -> dict[str, Any]:
    """Literal values of ``_private`` class attributes; non-literals are left out."""
    attrs: dict[str, Any] = {}
    for stmt in node.body:
        target, value = _assignment(stmt)
        if target and target.startswith("_") and value is not None:
            try:
                attrs[target] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return attrs


def _assignment(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    return None, None


def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _kind(node: ast.ClassDef) -> str:
    for base in node.bases:
        leaf = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
        if leaf in _KIND_BY_BASE:
            return _KIND_BY_BASE[leaf]
    return "model"


def _field(stmt: ast.stmt) -> FieldDef | None:
    """``name = fields.Type(...)`` at class level."""
    target, value = _assignment(stmt)
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
    values.update({a: _const_bool(kwargs.get(a)) is True for a in _FLAG_ATTRS})
    return FieldDef(
        name=target,
        type=ftype,
        line=stmt.lineno,
        comodel=comodel,
        inverse_name=inverse_name,
        store=_const_bool(kwargs.get("store")),
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


def _const_bool(node: ast.expr | None) -> bool | None:
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


def _method(node: ast.FunctionDef) -> MethodDef:
    return MethodDef(
        name=node.name,
        line=node.lineno,
        decorators=tuple(_decorator_text(d) for d in node.decorator_list),
    )


def _decorator_text(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 200 else text[:197] + "..."
