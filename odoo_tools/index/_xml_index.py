"""Records, views, actions, menus, groups, rules and QWeb templates from Odoo XML data files.

Parsed with lxml with entities and network access off (a data file is untrusted input). A record's
line is its ``id=`` attribute's (lxml's ``sourceline`` is where the start tag ends). Files whose
root is not ``<odoo>``/``<openerp>`` (OWL templates, reports' raw XML...) are indexed as empty; a
bare ``<data>`` root loads like ``<odoo>``. ``ir.model.access`` records become access rules, as the
CSV rows do. ``<function model="ir.model.data" name="_update_xmlids">`` names existing records
(stock's ``stock.picking_type_internal``...): those ids are defined there too.
"""

from __future__ import annotations

import re

from lxml import etree

from odoo_tools.findings import Finding
from odoo_tools.index._records import (
    AccessRow,
    ActionDef,
    FileData,
    MenuDef,
    RuleDef,
    ViewDef,
    XmlRecord,
    access_row,
    qualify,
)
from odoo_tools.index._xml_collected import Collected, as_int, id_line, is_true, source_line
from odoo_tools.index._xml_shortcuts import ACTION_TAGS, legacy_action, menuitem, template

VIEW_TYPES = frozenset(
    {"list", "tree", "form", "kanban", "search", "graph", "pivot", "calendar", "gantt", "activity"}
    | {"qweb", "map", "cohort", "hierarchy"}
)
_ROOTS = ("odoo", "openerp", "data")
_ACTION_MODELS = ("ir.actions.act_window", "ir.actions.server", "ir.actions.report", "ir.actions.client")
_XMLID_KEY = re.compile(r"""['"]xml_id['"]\s*:\s*['"]([\w.]+)['"]""")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def parse_xml(data: bytes, rel: str, module: str) -> FileData:
    """Index one XML file. Malformed XML becomes a finding, never an exception."""
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        finding = Finding(
            source="index",
            code="xml-syntax",
            module=module,
            path=rel,
            line=exc.lineno or None,
            message=f"{rel} is not well-formed XML: {exc.msg}.",
            hint="Fix the XML; the file is left out of the code index until then.",
        )
        return FileData(path=rel, module=module, kind="xml", findings=(finding,))
    out = Collected(lines=data.decode("utf-8", errors="replace").splitlines())
    if root.tag in _ROOTS:
        # ``<data noupdate="1">`` as the root means what it means inside ``<odoo>``.
        _walk(root, module, out, noupdate=is_true(root.get("noupdate")), parent_menu="")
    return FileData(
        path=rel,
        module=module,
        kind="xml",
        records=tuple(out.records),
        views=tuple(out.views),
        menus=tuple(out.menus),
        actions=tuple(out.actions),
        rules=tuple(out.rules),
        access=tuple(out.access),
        functions=tuple(out.functions),
    )


def _walk(node: etree._Element, module: str, out: Collected, *, noupdate: bool, parent_menu: str) -> None:
    for child in node:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "data":
            flag = child.get("noupdate")
            _walk(child, module, out, noupdate=noupdate if flag is None else is_true(flag), parent_menu="")
        elif child.tag == "record":
            _record(child, module, out, noupdate)
        elif child.tag == "menuitem":
            menuitem(child, module, out, noupdate, parent_menu)
        elif child.tag == "template":
            template(child, module, out, noupdate)
        elif child.tag in ACTION_TAGS:
            legacy_action(child, module, out, noupdate)
        elif child.tag == "function" and (child.get("model"), child.get("name")) == (
            "ir.model.data",
            "_update_xmlids",
        ):
            _update_xmlids(child, module, out, noupdate)
        elif child.tag == "function":
            out.functions.append(source_line(child))


def _record(node: etree._Element, module: str, out: Collected, noupdate: bool) -> None:
    model = node.get("model", "")
    raw_id = node.get("id")
    if not raw_id:  # records without id are created anonymously; nothing to find by id
        return
    xml_id = qualify(raw_id, module)
    line = id_line(node, out)
    out.records.append(XmlRecord(xml_id, model, line, "record", noupdate))
    values = _field_values(node, module)
    if model == "ir.ui.view":
        out.views.append(_view(node, xml_id, line, values))
    elif model in _ACTION_MODELS:
        res_model = values.get("res_model") or values.get("model") or values.get("model_id", "")
        out.actions.append(
            ActionDef(xml_id, line, model, values.get("name", ""), res_model, values.get("view_mode", ""))
        )
    elif model == "ir.ui.menu":
        out.menus.append(
            MenuDef(
                xml_id, line, values.get("name", ""), values.get("parent_id", ""), values.get("action", "")
            )
        )
    elif model == "ir.model.access":
        out.access.append(_access(xml_id, line, values, module))
    elif model == "ir.access":
        out.access.append(
            access_row(
                xml_id,
                line,
                name=values.get("name", ""),
                model_id=_ref_value(values, "model_id", module),
                group=_ref_value(values, "group_id", module),
                operation=values.get("operation", ""),
                domain=values.get("domain", ""),
            )
        )
    elif model == "ir.rule":
        out.rules.append(
            RuleDef(
                xml_id,
                line,
                values.get("name", ""),
                values.get("model_id", ""),
                values.get("domain_force", ""),
                _eval_refs(values.get("groups", ""), module),
                values.get("global", "") == "True",
            )
        )


def _update_xmlids(node: etree._Element, module: str, out: Collected, noupdate: bool) -> None:
    """``[{'xml_id': 'stock.picking_type_internal', 'record': ...}, ...]`` in the eval of the
    function or of its ``<value>``s: each xml id then names a record, as a ``<record>`` would."""
    for element in node.iter():
        for match in _XMLID_KEY.finditer(element.get("eval") or ""):
            out.records.append(
                XmlRecord(qualify(match.group(1), module), "", source_line(element), "function", noupdate)
            )


def _field_values(node: etree._Element, module: str) -> dict[str, str]:
    """``<field name=...>`` values: ref (qualified), eval (raw text) or text."""
    values: dict[str, str] = {}
    for child in node:
        if child.tag != "field" or not child.get("name"):
            continue
        name = child.get("name", "")
        if child.get("ref"):
            values[name] = qualify(child.get("ref", ""), module)
        elif child.get("eval") is not None:
            values[name] = child.get("eval", "")
        elif name != "arch":
            values[name] = (child.text or "").strip()
    return values


def _ref_value(values: dict[str, str], name: str, module: str) -> str:
    value = values.get(name, "")
    refs = _eval_refs(value, module) if "ref(" in value else ()
    return refs[0] if refs else value


def _access(xml_id: str, line: int, values: dict[str, str], module: str) -> AccessRow:
    return AccessRow(
        xml_id=xml_id,
        line=line,
        name=values.get("name", ""),
        model_ref=_ref_value(values, "model_id", module),
        group=_ref_value(values, "group_id", module),
        perm_read=is_true(values.get("perm_read")),
        perm_write=is_true(values.get("perm_write")),
        perm_create=is_true(values.get("perm_create")),
        perm_unlink=is_true(values.get("perm_unlink")),
    )


def _view(node: etree._Element, xml_id: str, line: int, values: dict[str, str]) -> ViewDef:
    inherit_id = values.get("inherit_id", "")
    return ViewDef(
        xml_id=xml_id,
        line=line,
        model=values.get("model", ""),
        type=values.get("type", "") or _arch_type(node),
        inherit_id=inherit_id,
        priority=as_int(values.get("priority")),
        mode=values.get("mode", "") or ("extension" if inherit_id else "primary"),
        name=values.get("name", ""),
    )


def _arch_type(node: etree._Element) -> str:
    for child in node:
        if child.tag == "field" and child.get("name") == "arch":
            for element in child:
                if isinstance(element.tag, str):
                    return element.tag if element.tag in VIEW_TYPES else ""
    return ""


def _eval_refs(text: str, module: str) -> tuple[str, ...]:
    """xml ids inside ``eval="[(4, ref('base.group_user'))]"``."""
    refs = []
    for chunk in text.split("ref(")[1:]:
        quote = chunk[:1]
        if quote in ("'", '"') and quote in chunk[1:]:
            refs.append(qualify(chunk[1 : chunk.index(quote, 1)], module))
    return tuple(refs)
