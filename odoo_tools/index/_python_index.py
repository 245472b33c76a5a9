"""Models, fields and methods from Python source, by AST only (nothing is imported or run).

A class counts as an Odoo model when it sets ``_name`` or ``_inherit``; its kind comes from its
base (``models.AbstractModel`` -> abstract, ``models.TransientModel`` -> transient).
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from odoo_tools.findings import Finding
from odoo_tools.index._python_fields import assignment, const_bool, field_def
from odoo_tools.index._records import FieldDef, FileData, MethodDef, ModelClass
from odoo_tools.sources import parse_source

# Files without these bytes hold no model class: skip parsing them (most of a big tree).
MODEL_MARKERS = (b"_name", b"_inherit")
_KIND_BY_BASE = {"Model": "model", "AbstractModel": "abstract", "TransientModel": "transient"}
# Classes of OCA's component framework (connector...) set _name/_inherit but are not ORM models.
_NOT_ORM_BASES = frozenset({"Component", "AbstractComponent"})
_API_NAMES = frozenset({"depends", "onchange", "constrains"})


def parse_python(data: bytes, rel: str, module: str) -> FileData:
    """Index one Python file. A syntax error becomes a finding, never an exception."""
    if not any(marker in data for marker in MODEL_MARKERS):
        return FileData(path=rel, module=module, kind="python")
    try:
        tree = parse_source(data, filename=rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        # Nesting deeper than the parser's limit (a 5,000-deep -(-(...))): Python cannot compile
        # it either, so the module does not load.
        deep = isinstance(exc, (RecursionError, MemoryError))
        why = "it nests too deeply for Python's parser" if deep else None
        finding = Finding(
            source="index",
            code="python-syntax",
            module=module,
            path=rel,
            line=line,
            message=f"{rel} does not parse: {why or getattr(exc, 'msg', exc)}.",
            hint="Fix the syntax error; the file is left out of the code index until then.",
        )
        return FileData(path=rel, module=module, kind="python", findings=(finding,))
    classes = _classes(tree)
    # A base class that is another model class of the file (``class Multi(WebsitePublishedMixin)``)
    # brings nothing the ``_inherit`` of its model does not already bring.
    local = {node.name: m.model for node in classes if (m := _model_class(node, {})) is not None}
    models = tuple(m for node in classes if (m := _model_class(node, local)) is not None)
    return FileData(path=rel, module=module, kind="python", models=models, env_models=_env_models(tree))


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


def _model_class(node: ast.ClassDef, local: dict[str, str]) -> ModelClass | None:
    if any(_leaf(base) in _NOT_ORM_BASES for base in node.bases):
        return None
    attrs = _class_attrs(node)
    assigned = _assignments(node)
    name = attrs.get("_name")
    if not isinstance(name, str):
        name = None
    inherit, literal = _inherit_names(assigned.get("_inherit"), name)
    if name is None and not inherit:
        return None
    model = name or inherit[0]
    inherits = attrs.get("_inherits")
    fields = tuple(f for stmt in node.body if (f := field_def(stmt)) is not None)
    delegated = _delegated(node, fields)
    if delegated or isinstance(inherits, dict):
        # A Many2one with delegate=True is an _inherits entry: its comodel's fields are the model's.
        inherits = {
            **{m: f for m, (f, _) in delegated.items()},
            **(inherits if isinstance(inherits, dict) else {}),
        }
    field_names = {f.name for f in fields}
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
        fields=fields,
        methods=tuple(_method(stmt) for stmt in node.body if isinstance(stmt, ast.FunctionDef)),
        described="_description" in assigned,
        registered=attrs.get("_register") is not False,
        opaque=not literal or any(_foreign_base(base, local, inherit) for base in node.bases),
        other_names=tuple(sorted(n for n in assigned if n not in field_names and not n.startswith("_"))),
        inherit_line=_line_of(assigned.get("_inherit")),
        inherits_line=_line_of(assigned.get("_inherits"))
        or min((ln for _, ln in delegated.values()), default=0),
        order_line=_line_of(assigned.get("_order")),
        rec_name_line=_line_of(assigned.get("_rec_name")),
    )


def _delegated(node: ast.ClassDef, fields: tuple[FieldDef, ...]) -> dict[str, tuple[str, int]]:
    """comodel -> (field, line) of the class's ``fields.Many2one(..., delegate=True)``."""
    found: dict[str, tuple[str, int]] = {}
    many2one = {f.name: f for f in fields if f.type == "Many2one" and f.comodel}
    for stmt in node.body:
        target, value = assignment(stmt)
        fdef = many2one.get(target or "")
        if fdef is None or not isinstance(value, ast.Call):
            continue
        if any(kw.arg == "delegate" and const_bool(kw.value) is True for kw in value.keywords):
            found.setdefault(fdef.comodel, (fdef.name, fdef.line))
    return found


def _foreign_base(base: ast.expr, local: dict[str, str], inherit: tuple[str, ...]) -> bool:
    """A base class that may bring fields or methods the ORM classes do not show."""
    leaf = _leaf(base)
    if leaf in _KIND_BY_BASE or leaf == "BaseModel":
        return False
    return local.get(leaf) not in inherit


def _inherit_names(value: ast.expr | None, name: str | None) -> tuple[tuple[str, ...], bool]:
    """``_inherit``'s model names, and whether every element was understood. ``_name`` inside
    the list (``_inherit = [_name, "mail.thread"]``) is the class's own ``_name``."""
    if value is None:
        return (), True
    items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
    names: list[str] = []
    literal = True
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            names.append(item.value)
        elif isinstance(item, ast.Name) and item.id == "_name" and name:
            names.append(name)
        else:
            literal = False
    return tuple(names), literal


def _assignments(node: ast.ClassDef) -> dict[str, ast.expr]:
    """Every class attribute given a value, literal or not (``_description = __doc__``)."""
    found: dict[str, ast.expr] = {}
    for stmt in node.body:
        target, value = assignment(stmt)
        if target and value is not None:
            found[target] = value
    return found


def _line_of(node: ast.expr | None) -> int:
    return node.lineno if node is not None else 0


def _leaf(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _class_attrs(node: ast.ClassDef) -> dict[str, Any]:
    """Literal values of ``_private`` class attributes; non-literals are left out. A name bound
    earlier in the class body to a literal string reads as that string, as Python evaluates the
    body (l10n_br_account: ``_inherits = {_fiscal_decorator_model: "fiscal_document_id"}``)."""
    attrs: dict[str, Any] = {}
    for stmt in node.body:
        target, value = assignment(stmt)
        if target and target.startswith("_") and value is not None:
            try:
                attrs[target] = ast.literal_eval(_bound_names(value, attrs))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return attrs


def _bound_names(value: ast.expr, attrs: dict[str, Any]) -> ast.expr:
    """``value`` with each name of a string attribute read so far put as that string."""

    class Bind(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            bound = attrs.get(name.id)
            return ast.Constant(bound) if isinstance(bound, str) else name

    return Bind().visit(copy.deepcopy(value))  # type: ignore[no-any-return]


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
        leaf = _leaf(base)
        if leaf in _KIND_BY_BASE:
            return _KIND_BY_BASE[leaf]
    return "model"


def _method(node: ast.FunctionDef) -> MethodDef:
    return MethodDef(
        name=node.name,
        line=node.lineno,
        decorators=tuple(_decorator_text(d) for d in node.decorator_list),
        field_names=tuple(n for d in node.decorator_list if (n := _api_names(d)) is not None),
    )


def _api_names(node: ast.expr) -> tuple[str, int, tuple[str, ...]] | None:
    """``@api.depends("a", "b.c")`` -> ("depends", line, ("a", "b.c")); None when any name is
    not a literal (a lambda, a constant from elsewhere)."""
    if not isinstance(node, ast.Call) or _leaf(node.func) not in _API_NAMES or node.keywords:
        return None
    names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(names) != len(node.args):
        return None
    return _leaf(node.func), node.lineno, tuple(names)


def _env_models(tree: ast.Module) -> tuple[tuple[str, int], ...]:
    """``self.env["x.y"]`` / ``env["x.y"]`` with a literal model name, and its line."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and _is_own_env(node.value)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            found.append((node.slice.value, node.lineno))
    return tuple(found)


def _is_own_env(node: ast.expr) -> bool:
    """``self.env`` or a bare ``env``: not ``connection.env`` (another database's registry)."""
    if isinstance(node, ast.Name):
        return node.id == "env"
    return isinstance(node, ast.Attribute) and node.attr == "env" and _leaf(node.value) == "self"


def _decorator_text(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 200 else text[:197] + "..."
