"""External IDs and views as a real database holds them (run inside Odoo by ``dump.py``).

Stdlib only (lxml is reached through Odoo, which always has it). A view is kept as a skeleton:
``[tag, {attrs}, [children]]``, text, comments and expression values dropped. The attributes kept
(``KEPT``) are the ones view inheritance anchors on and the structure a check needs; ``string`` only on
``ANCHORED`` tags (where specs do match on it); any other ``t-*`` directive keeps its NAME with an
empty value (that it is there is structure, its expression is Odoo's text). Readers tolerate
attributes they do not know.
"""

from __future__ import annotations

from typing import Any

KEPT = frozenset(
    {"name", "id", "class", "position", "expr", "groups", "type", "mode", "t-name", "t-call", "t-set", "t-as"}
)
ANCHORED = frozenset(
    {
        "group",
        "page",
        "div",
        "separator",
        "filter",
        "button",
        "field",
        "notebook",
        "sheet",
        "header",
        "footer",
        "t",
    }
)


def xmlids(env: Any) -> dict[str, dict[str, str]]:
    """module -> name -> model of every external ID."""
    env.cr.execute("SELECT module, name, model FROM ir_model_data ORDER BY module, name")
    found: dict[str, dict[str, str]] = {}
    for module, name, model in env.cr.fetchall():
        found.setdefault(module, {})[name] = model
    return found


def access_models(env: Any) -> dict[str, str]:
    """``module.name`` of each access right (ir.model.access) and record rule (ir.rule) -> its model."""
    found: dict[str, str] = {}
    for table in ("ir_model_access", "ir_rule"):
        env.cr.execute(
            f"SELECT d.module || '.' || d.name, m.model FROM ir_model_data d"  # table: one of the two above
            f" JOIN {table} a ON d.res_id = a.id AND d.model = %s JOIN ir_model m ON m.id = a.model_id",
            [table.replace("_", ".")],
        )
        found.update(dict(env.cr.fetchall()))
    return dict(sorted(found.items()))


def views(env: Any) -> dict[str, Any]:
    env.cr.execute(
        "SELECT res_id, module || '.' || name FROM ir_model_data WHERE model = 'ir.ui.view' ORDER BY id"
    )
    xml_ids: dict[int, str] = {}
    for res_id, xml_id in env.cr.fetchall():
        xml_ids.setdefault(res_id, xml_id)
    position = {res_id: order for order, res_id in enumerate(xml_ids)}
    found: dict[str, Any] = {}
    records = env["ir.ui.view"].with_context(active_test=False).browse(list(xml_ids))
    for view in records:
        xml_id = xml_ids[view.id]
        data: dict[str, Any] = {
            "model": view.model or None,
            "type": view.type,
            "mode": view.mode,
            "priority": view.priority,
            "inherit_id": xml_ids.get(view.inherit_id.id) if view.inherit_id else None,
            "module": xml_id.partition(".")[0],
            "order": position[view.id],
            "active": bool(view.active),
            "arch": skeleton_of_text(view.arch_db or ""),
        }
        if view.mode == "primary":
            try:
                data["combined"] = skeleton(view._get_combined_arch())
            except Exception as error:  # a view Odoo itself cannot combine here: say so, keep going
                data["combined_error"] = type(error).__name__
        found[xml_id] = data
    return found


def skeleton_of_text(arch: str) -> Any:
    if not arch.strip():
        return None
    etree = __import__("lxml.etree", fromlist=["etree"])
    return skeleton(etree.fromstring(arch.encode()))


def skeleton(node: Any) -> list[Any]:
    tag = node.tag
    attrs: dict[str, str] = {}
    for key, value in node.attrib.items():
        if key in KEPT or (key == "string" and tag in ANCHORED):
            attrs[key] = value
        elif key.startswith("t-"):
            attrs[key] = ""
    children = [skeleton(child) for child in node if isinstance(child.tag, str)]
    return [tag, attrs, children]
