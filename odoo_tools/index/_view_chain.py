"""A view's place in its inheritance chain, as the index knows it: the views it extends up to its
root (each with the root's type and model when it says none) and the views that extend it."""

from __future__ import annotations

from odoo_tools.index._answers import ViewSummary
from odoo_tools.index._records import ViewDef
from odoo_tools.index._tables import Located, Tables


def view_summary(located: Located[ViewDef]) -> ViewSummary:
    v = located.item
    return ViewSummary(
        module=located.module,
        path=located.path,
        line=v.line,
        xml_id=v.xml_id,
        model=v.model,
        type=v.type,
        inherit_id=v.inherit_id,
        mode=v.mode,
        priority=v.priority,
    )


def ancestors(tables: Tables, xml_id: str) -> list[ViewSummary]:
    chain: list[ViewSummary] = []
    current: str | None = xml_id
    while current and current in tables.views and all(v.xml_id != current for v in chain):
        chain.append(view_summary(tables.views[current][-1]))
        current = tables.views[current][-1].item.inherit_id
    chain.reverse()
    # An inheriting view's type and model are its root's.
    root = chain[0] if chain else None
    if root:
        chain = [
            v.model_copy(update={"type": v.type or root.type, "model": v.model or root.model}) for v in chain
        ]
    return chain


def descendants(tables: Tables, xml_id: str) -> list[str]:
    found: list[str] = []
    todo = [xml_id]
    while todo:
        for child in sorted(tables.view_children.get(todo.pop(0), [])):
            if child not in found and child != xml_id:
                found.append(child)
                todo.append(child)
    return found
