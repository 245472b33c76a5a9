"""The model of the node an inheriting view's ``xpath`` lands on: its new nodes are checked there.

A view's nodes belong to its model, except inside an x2many field's inline sub-view (``<field
name="line_ids"><list>...``), whose nodes belong to the comodel. The path is followed step by step:
down through ``/`` and ``//``, up through ``..``, ``parent::`` and ``ancestor::``, sideways through the
sibling axes. A field element sits among its own model's nodes: ``//field[@name='partner_ids']/..`` is
a node of the model that has ``partner_ids``, not of ``res.partner``; only a step below the field
enters its sub-view. Where the path cannot be followed for certain, nothing is claimed: ``()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from odoo_tools.index import ModelResolver
from odoo_tools.lint._static.xpath_steps import location_steps

_NAME = re.compile(r"""^[\w:*-]*\[\s*@name\s*=\s*['"](\w+)['"]\s*\]""")
_UP = ("parent::", "ancestor::", "ancestor-or-self::")
_SIDEWAYS = ("following-sibling::", "preceding-sibling::", "self::")
_DOWN = ("child::", "descendant::", "descendant-or-self::")

Candidates = Callable[[ModelResolver, str, int], tuple[str, ...]]


@dataclass(frozen=True)
class _Node:
    contexts: tuple[str, ...]  # the models the node may belong to (one, when certain)
    field: str = ""  # the node is a <field name=...> element of those models
    top: bool = True  # the node is certainly in the view itself, not in an inline sub-view


def xpath_contexts(
    resolver: ModelResolver, model: str, expr: str, position: str, candidates: Candidates
) -> tuple[str, ...]:
    """The models the nodes a spec adds at ``expr`` belong to (``position`` after, before, replace or
    inside the node it finds); ``()`` when that cannot be told. ``candidates(resolver, model, depth)``
    gives ``model`` and the comodels of its inline sub-views, ``depth`` levels down."""
    steps = location_steps(expr)
    if steps is None:
        return ()
    node: _Node | None = _Node((model,))
    for descendant, step in steps:
        node = _step(resolver, node, descendant, step, candidates) if node else None
    if node is None:
        return ()
    if position == "inside" and node.field:
        return ()  # new inline sub-views of that field: rare, left alone
    return node.contexts


def lands_in_sub_view(expr: str) -> bool:
    """The path goes below a ``<field>``: what a spec puts there is in that field's inline sub-view
    (a field's only children in an arch), which Odoo does not validate as a view of its own."""
    below_field = False
    for _, step in location_steps(expr) or []:
        name = step.split("[", 1)[0].strip()
        if name == ".." or name.startswith(("parent::", "ancestor::", "ancestor-or-self::")):
            return False  # back up: where it lands is xpath_contexts' question
        if below_field:
            return True
        below_field = name in ("field", "child::field", "descendant::field")
    return False


def _step(
    resolver: ModelResolver, node: _Node, descendant: bool, step: str, candidates: Candidates
) -> _Node | None:
    if step == ".":
        return node
    if step == ".." or step.startswith(_UP):
        if node.field or node.top:
            return _Node(node.contexts, "", node.top)  # a field's parent is among its model's nodes
        return None  # may leave an inline sub-view
    sideways = step.startswith(_SIDEWAYS)
    for axis in (*_SIDEWAYS, *_DOWN):
        if step.startswith(axis):
            descendant = descendant or axis.startswith("descendant")
            step = step[len(axis) :]
    tag = re.split(r"[\[(]", step, maxsplit=1)[0]
    name = _NAME.match(step)
    inside: tuple[str, ...] | None = node.contexts  # a sibling is among the same model's nodes
    if node.field and not sideways:
        inside = _comodels(resolver, node)  # below a field: its inline sub-view
    if inside is None:
        return None
    top = node.top and (sideways or not node.field)
    level = inside
    if descendant:
        wider = [c for m in inside for c in candidates(resolver, m, 2 if name else 1)]
        if not wider:
            return None
        inside = tuple(dict.fromkeys(wider))
    if tag == "field" and name:
        having = tuple(m for m in inside if resolver.model(m).has_field(name.group(1)) is not False)
        if not having:
            return None  # the spec finds nothing there: the anchor check's business
        return _Node(having, name.group(1), top and set(having) <= set(level))
    return _Node(inside, "", top and set(inside) <= set(level))


def _comodels(resolver: ModelResolver, node: _Node) -> tuple[str, ...] | None:
    found = [resolver.comodel(m, node.field) for m in node.contexts]
    if not found or any(c is None for c in found):
        return None
    return tuple(dict.fromkeys(c for c in found if c))
