"""Which model a field path of a domain steps into: ``('account_id.company_id', '=', x)`` on the
module's own model reads ``company_id`` on the comodel of the module's own ``account_id``. The
module's own relational fields (its Python classes' ``x = fields.Many2one("comodel")``, under the
model the class defines or extends) are read first, then the source series' pack for core ones.
A field neither knows ends the walk: nothing after it is renamed."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from odoo_tools.index import RELATIONAL
from odoo_tools.series import pack_ref


class Comodels:
    def __init__(self, texts: dict[str, str], series: str) -> None:
        self._own: dict[tuple[str, str], str] = {}
        for rel, text in sorted(texts.items()):
            if rel.endswith(".py") and "fields." in text and not rel.startswith(("migrations/", "upgrades/")):
                self._own.update(own_relational_fields(text))
        ref = pack_ref(series)
        self._pack = ref.pack if ref is not None else None

    def of(self, model: str, field: str) -> str:
        """The comodel of ``model``'s relational ``field`` ('' when not known as one)."""
        own = self._own.get((model, field))
        if own is not None or self._pack is None:
            return own or ""
        found = self._pack.model(model)
        known = found.fields.get(field) if found is not None else None
        return known.comodel if known is not None else ""


def own_relational_fields(text: str) -> dict[tuple[str, str], str]:
    """(model, field) -> comodel of the relational fields the file's classes declare."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    found: dict[tuple[str, str], str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        model = _class_model(node)
        for name, call in _field_calls(node) if model else ():
            comodel = relational_comodel(call)
            if comodel:
                found[(model, name)] = comodel
    return found


def relational_comodel(node: ast.Call) -> str:
    """The comodel ``fields.Many2one("x", ...)`` (or comodel_name=) names ('' when none)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in RELATIONAL and isinstance(func.value, ast.Name)):
        return ""
    given = [k.value for k in node.keywords if k.arg == "comodel_name"] or node.args[:1]
    found = given[0] if given else None
    return found.value if isinstance(found, ast.Constant) and isinstance(found.value, str) else ""


def _field_calls(node: ast.ClassDef) -> Iterator[tuple[str, ast.Call]]:
    for statement in node.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call)
        ):
            yield statement.targets[0].id, statement.value


def _class_model(node: ast.ClassDef) -> str:
    """``_name``, else the one ``_inherit`` (a string or a one-element list); '' otherwise."""
    found: dict[str, str] = {}
    for statement in node.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if isinstance(value, ast.List) and len(value.elts) == 1:
            value = value.elts[0]
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            found[target.id] = value.value
    return found.get("_name") or found.get("_inherit", "")
