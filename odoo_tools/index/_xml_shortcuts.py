"""Odoo's shortcut tags in data files: ``<menuitem>`` (nested ones take it as parent), ``<template>``
(a QWeb view) and the legacy ``<act_window>``/``<report>``, read as the records they make."""

from __future__ import annotations

from lxml import etree

from odoo_tools.index._records import ActionDef, MenuDef, ViewDef, XmlRecord, qualify
from odoo_tools.index._xml_collected import Collected, as_int, id_line, is_true

ACTION_TAGS = {"act_window": "ir.actions.act_window", "report": "ir.actions.report"}


def menuitem(node: etree._Element, module: str, out: Collected, noupdate: bool, parent_menu: str) -> None:
    raw_id = node.get("id")
    if not raw_id:
        return
    xml_id = qualify(raw_id, module)
    line = id_line(node, out)
    parent = qualify(node.get("parent", ""), module) or parent_menu
    groups = tuple(qualify(g.lstrip("-"), module) for g in node.get("groups", "").split(",") if g.strip())
    out.records.append(XmlRecord(xml_id, "ir.ui.menu", line, "menuitem", noupdate))
    out.menus.append(
        MenuDef(
            xml_id=xml_id,
            line=line,
            name=node.get("name", ""),
            parent=parent,
            action=qualify(node.get("action", ""), module),
            sequence=as_int(node.get("sequence")),
            groups=groups,
        )
    )
    for child in node:  # nested menuitems take this one as parent
        if child.tag == "menuitem":
            menuitem(child, module, out, noupdate, xml_id)


def template(node: etree._Element, module: str, out: Collected, noupdate: bool) -> None:
    raw_id = node.get("id")
    if not raw_id:
        return
    xml_id = qualify(raw_id, module)
    line = id_line(node, out)
    inherit_id = qualify(node.get("inherit_id", ""), module)
    primary = is_true(node.get("primary"))
    out.records.append(XmlRecord(xml_id, "ir.ui.view", line, "template", noupdate))
    out.views.append(
        ViewDef(
            xml_id=xml_id,
            line=line,
            type="qweb",
            inherit_id=inherit_id,
            priority=as_int(node.get("priority")),
            mode="primary" if primary or not inherit_id else "extension",
            name=node.get("name", ""),
        )
    )


def legacy_action(node: etree._Element, module: str, out: Collected, noupdate: bool) -> None:
    raw_id = node.get("id")
    if not raw_id:
        return
    xml_id = qualify(raw_id, module)
    model = ACTION_TAGS[str(node.tag)]
    line = id_line(node, out)
    out.records.append(XmlRecord(xml_id, model, line, str(node.tag), noupdate))
    res_model = node.get("res_model") or node.get("model") or ""
    out.actions.append(
        ActionDef(xml_id, line, model, node.get("name", ""), res_model, node.get("view_mode", ""))
    )
