"""The field names a view expression uses, read with Python's ``ast`` (never evaluated).

Odoo 17+ reads each expression the same way when it validates a view (``odoo/tools/
view_validation.py``): the free names of a modifier (``invisible="state == 'done'"``), of a
``decoration-*`` and of a context's values must be fields of the node's model (``parent.x``: of the
model of the view holding the inline sub-view); the left side of each leaf of a domain is a field
path on the model the domain filters (the comodel for a relational ``<field domain>``), its right
side is again free names. Whatever we cannot read the way Odoo does gives None: no claim.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from odoo_tools.series import VIEW_CONTEXT_NAMES

Names = frozenset[str]

_OPERATORS = frozenset({"&", "|", "!"})
MAX_EXPRESSION = 4_000  # characters: a longer attribute is not read (hostile input stays cheap)
MAX_DEPTH = 60  # nested nodes followed; deeper: not read


@dataclass
class DomainNames:
    paths: set[str] = field(default_factory=set)  # left sides: field paths on the filtered model
    values: set[str] = field(default_factory=set)  # free names of the right sides (view fields)


def _parse(text: str) -> ast.expr | None:
    text = text.strip()
    if not text or len(text) > MAX_EXPRESSION:
        return None
    try:
        return ast.parse(f"({text})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # Odoo raises its own "Invalid modifier" there: another check's claim


def _free(node: ast.AST, depth: int = 0) -> set[str] | None:
    """Dotted free names (``partner_id.name``, ``parent.state``), as Odoo collects them."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.Constant):
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        inner = _free(node.value, depth + 1)
        if inner is not None and len(inner) == 1:
            return {f"{next(iter(inner))}.{node.attr}"}
        return inner
    children: list[ast.expr]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        children = list(node.elts)
    elif isinstance(node, ast.Subscript):
        children = [node.value, node.slice]
    elif isinstance(node, ast.Compare):
        children = [node.left, *node.comparators]
    elif isinstance(node, ast.BinOp):
        children = [node.left, node.right]
    elif isinstance(node, ast.BoolOp):
        children = list(node.values)
    elif isinstance(node, ast.UnaryOp):
        children = [node.operand]
    elif isinstance(node, ast.Call):
        children = [node.func, *node.args, *(k.value for k in node.keywords)]
    elif isinstance(node, ast.IfExp):
        children = [node.test, node.body, node.orelse]
    elif isinstance(node, ast.Dict):
        children = [*(k for k in node.keys if k is not None), *node.values]
    else:
        return None  # a lambda, a comprehension...: Odoo refuses it, we do not judge its names
    found: set[str] = set()
    for child in children:
        names = _free(child, depth + 1)
        if names is None:
            return None
        found |= names
    return found


def _roots(names: set[str], context: Names) -> set[str]:
    """Odoo's reduction: ``partner_id.name`` is field ``partner_id``; ``parent.x`` stays whole."""
    kept: set[str] = set()
    for name in names:
        root = name.split(".")[0]
        if name != "parent" and root not in context:
            kept.add(name if root == "parent" else root)
    return kept


def expression_names(text: str, context: Names = VIEW_CONTEXT_NAMES) -> set[str] | None:
    """The field names a modifier, decoration or context uses (``context``: the names Odoo binds
    itself on the series, ``odoo_tools.series.view_context_names``); None: not read."""
    if text.strip().lower() in ("0", "1", "true", "false"):
        return set()
    node = _parse(text)
    names = _free(node) if node is not None else None
    return _roots(names, context) if names is not None else None


def domain_names(text: str, context: Names = VIEW_CONTEXT_NAMES) -> DomainNames | None:
    """The field paths and free names of a domain; None where Odoo's own reading would not
    apply (a name bound elsewhere, a shape it refuses)."""
    node = _parse(text)
    if node is None:
        return None
    found = DomainNames()
    if isinstance(node, ast.Name):
        found.values |= _roots({node.id}, context)
        return found
    values: set[str] = set()
    if not _domain(node, found, values, 0):
        return None
    found.values = _roots(values, context)
    return found


def _domain(node: ast.expr, found: DomainNames, values: set[str], depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(node, ast.IfExp):  # [...] if cond else [...]
        return _domain(node.body, found, values, depth + 1) and _domain(node.orelse, found, values, depth + 1)
    if isinstance(node, (ast.BoolOp, ast.BinOp)):  # cond and [...], [...] + [...]
        parts = node.values if isinstance(node, ast.BoolOp) else [node.left, node.right]
        for part in parts:
            if isinstance(part, (ast.List, ast.IfExp, ast.BoolOp, ast.BinOp)):
                if not _domain(part, found, values, depth + 1):
                    return False
            elif (names := _free(part)) is not None:
                values |= names
            else:
                return False
        return True
    if not isinstance(node, (ast.List, ast.Tuple)):
        return False
    for item in node.elts:
        if isinstance(item, ast.Constant):
            if item.value not in _OPERATORS and item.value not in (True, False):
                return False
            continue
        if not isinstance(item, (ast.List, ast.Tuple)) or len(item.elts) != 3:
            return False
        left, _operator, right = item.elts
        right_names = _free(right)
        if right_names is None:
            return False
        values |= right_names
        if isinstance(left, ast.Constant) and isinstance(left.value, str):
            found.paths.add(left.value)
        elif not isinstance(left, ast.Constant):
            return False  # (expression, '=', 1): an old form we leave alone
    return True


def context_group_by(text: str) -> str | None:
    """The field a context's literal ``'group_by': 'field:granularity'`` names; None: none."""
    node = _parse(text)
    if not isinstance(node, ast.Dict):
        return None
    for key, value in zip(node.keys, node.values, strict=True):
        named = isinstance(key, ast.Constant) and key.value == "group_by"
        if named and isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
            return value.value.split(":")[0]
    return None


def attrs_names(text: str, context: Names = VIEW_CONTEXT_NAMES) -> DomainNames | None:
    """The names of a 16.0 ``attrs="{'invisible': [...], ...}"``, as 16.0's ``_validate_attrs``
    collects them: for a domain value, the left sides of its leaves (``paths``) and the free names
    of the right sides; for any other value, its free names (``values``). Every one must be a field
    of the node's model. None: not a dict with literal keys or not read (Odoo's own error)."""
    node = _parse(text)
    if not isinstance(node, ast.Dict):
        return None
    found = DomainNames()
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if isinstance(value, ast.List):
            leaves = DomainNames()
            values: set[str] = set()
            if not _domain(value, leaves, values, 0):
                return None
            found.paths |= leaves.paths
            found.values |= _roots(values, context)
        elif (names := _free(value)) is not None:
            found.values |= _roots(names, context)
        else:
            return None
    return found
