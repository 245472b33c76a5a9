"""Which model's records a Python expression of a module holds, read from the code alone:
``env["stock.move"]`` and what keeps its model (``.sudo()``, ``.browse()``...), and the names and
``self.``/``cls.`` attributes only ever bound to such an expression. ``FieldFollower`` knows more
with the older series' core fields: ``self`` in a model class, records created, filtered or
iterated, and relational fields followed (``picking.move_ids.filtered(...)`` holds stock.move)."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from odoo_tools.lint import core_model_fields
from odoo_tools.migrate.engine.python_rules import class_model, string_value

# calls between env["model"] and create() that keep the model: env["x"].sudo().with_context(...)
SAME_MODEL = ("sudo", "with_context", "with_company", "with_user", "with_env", "browse", "search")
# what else returns records of the model it is called on
SAME_RECORDS = (*SAME_MODEL, "create", "new", "copy", "filtered", "filtered_domain", "sorted", "exists")
_PATH_METHODS = ("mapped",)

# (expression, the names bound so far, the model of ``self`` where it is written) -> its model or ''
ModelOf = Callable[[cst.BaseExpression, dict[str, str], str], str]


def model_of(node: cst.BaseExpression, bound: dict[str, str], self_model: str = "") -> str:
    """``env["stock.move"]``, ``self.env['stock.move'].sudo()``, a name or ``self.``/``cls.``
    attribute bound to such an expression only... -> "stock.move"; else ''."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value not in SAME_MODEL:
            return ""
        node = node.func.value
    if isinstance(node, cst.Name | cst.Attribute) and bound_name(node) in bound:
        return bound[bound_name(node)]
    return _env_model(node)


def _env_model(node: cst.BaseExpression) -> str:
    """``env["stock.move"]``, ``self.env['stock.move']`` -> "stock.move"; else ''."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return ""
    index = node.slice[0].slice
    target = node.value
    is_env = (isinstance(target, cst.Name) and target.value == "env") or (
        isinstance(target, cst.Attribute) and target.attr.value == "env"
    )
    return (string_value(index.value) or "") if is_env and isinstance(index, cst.Index) else ""


class FieldFollower:
    """``model_of`` that also follows the core fields of ``series`` (the module's source series)."""

    def __init__(self, series: str) -> None:
        self.series = series

    def __call__(self, node: cst.BaseExpression, bound: dict[str, str], self_model: str = "") -> str:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            method, receiver = node.func.attr.value, node.func.value
            if method in SAME_RECORDS:
                return self(receiver, bound, self_model)
            path = string_value(node.args[0].value) if len(node.args) == 1 else None
            if method in _PATH_METHODS and path:
                return self.follow(self(receiver, bound, self_model), path.split("."))
            return ""
        if isinstance(node, cst.Name) and node.value == "self" and self_model:
            return self_model
        if isinstance(node, cst.Name | cst.Attribute) and bound_name(node) in bound:
            return bound[bound_name(node)]
        if isinstance(node, cst.Attribute):
            return self.follow(self(node.value, bound, self_model), [node.attr.value])
        return _env_model(node)

    def follow(self, model: str, names: list[str]) -> str:
        """The comodel reached from ``model`` through the relational core fields ``names``."""
        for name in names:
            field = core_model_fields(self.series, model).get(name) if model else None
            if field is None or not field.comodel:
                return ""
            model = field.comodel
        return model


def bound_name(node: cst.BaseExpression) -> str:
    """``Product`` -> "Product", ``self.Product`` and ``cls.Product`` -> "self.Product" (a test
    class binds in setUpClass what its tests read from self); anything else ''."""
    if isinstance(node, cst.Name):
        return node.value
    if (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value in ("self", "cls")
    ):
        return f"self.{node.attr.value}"
    return ""


class BoundModels(cst.CSTVisitor):
    """The names and self attributes of a file that are only ever bound to one certain model's
    records (``cls.Product = cls.env["product.product"]``, ``self.Sudo = self.Product.sudo()``;
    with ``loops``, ``for move in moves`` too): a name bound anywhere to something else, or bound
    another way (a parameter, ``with ... as``, an import), is not certain."""

    def __init__(self, loops: bool = False) -> None:
        super().__init__()
        self.loops = loops
        # name -> (value, the model of self where it is bound) per binding; None: bound another way
        self._values: dict[str, list[tuple[cst.BaseExpression, str] | None]] = {}
        self._classes: list[str] = []

    def certain(self, resolve: ModelOf = model_of) -> dict[str, str]:
        known: dict[str, str] = {}
        for _ in range(len(self._values) + 1):  # each round resolves one more link of a chain
            found = {}
            for name, values in self._values.items():
                models = {resolve(v[0], known, v[1]) if v is not None else "" for v in values}
                if len(models) == 1 and "" not in models:
                    found[name] = models.pop()
            if found == known:
                break
            known = found
        return known

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(class_model(node))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        name = bound_name(target)
        if name:
            where = self._classes[-1] if self._classes else ""
            self._values.setdefault(name, []).append((value, where) if value is not None else None)
        elif isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                self._bind(element.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_Param(self, node: cst.Param) -> None:
        self._bind(node.name, None)

    def visit_For(self, node: cst.For) -> None:
        # a loop over records binds each record, of the same model
        looped = self.loops and isinstance(node.target, cst.Name)
        self._bind(node.target, node.iter if looped else None)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target, None)
