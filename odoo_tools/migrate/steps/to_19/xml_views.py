"""18.0 -> 19.0 in XML: ``groups_id`` is ``group_ids`` on the models that restrict by group
(res.users, menus, views, window/server/report actions), in data records and in their views;
a search view's ``<group expand="0" string="Group By">`` is a bare ``<group>``."""

from __future__ import annotations

import re

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_edit import (
    element_text,
    in_arch,
    record_model,
    replace_attribute,
    replace_element,
    set_value,
)
from odoo_tools.migrate.engine.xml_tags import XmlDocument

# Read in the 18.0 and 19.0 sources (odoo/addons/base/models): groups_id in 18.0, group_ids in 19.0.
GROUP_MODELS = frozenset(
    {
        "res.users",
        "ir.ui.menu",
        "ir.ui.view",
        "ir.actions.act_window",
        "ir.actions.server",
        "ir.actions.report",
    }
)


def _view_model(element: etree._Element) -> str:
    """The model of the view whose arch holds ``element``."""
    parent = element.getparent()
    while parent is not None and parent.tag != "record":
        parent = parent.getparent()
    if parent is None:
        return ""
    model = parent.find("field[@name='model']")
    return (model.text or "").strip() if model is not None else ""


def fix_groups_id(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in doc.root.iter("field"):
        name = element.get("name")
        if name not in ("groups_id", "users"):
            continue
        model = _view_model(element) if in_arch(element) else record_model(element)
        if name == "groups_id" and model in GROUP_MODELS:
            edits.append(set_value(doc, element, "name", "group_ids", "renamed-groups-id"))
            site.report.count("renamed-groups-id")
        elif name == "users" and model == "res.groups":
            edits.append(set_value(doc, element, "name", "user_ids", "renamed-groups-users"))
            site.report.count("renamed-groups-users")
    return edits


# ``user.groups_id`` in an expression Odoo evaluates: a rule's domain_force, eval=, domain=...
_USER_GROUPS = re.compile(r"(?<=\buser\.)groups_id\b")
_EXPRESSION_ATTRIBUTES = ("eval", "domain", "context", "filter_domain", "invisible", "readonly", "required")


def fix_user_groups_expressions(doc: XmlDocument, site: Site) -> list[Edit]:
    """``user.groups_id`` is ``user.group_ids`` in 19.0 (OCA project_group's record rule
    ``('group_ids', 'in', user.groups_id.ids)`` failed the install)."""
    edits: list[Edit] = []
    for element in doc.root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in _EXPRESSION_ATTRIBUTES:
            value = element.get(name)
            if value and _USER_GROUPS.search(value):
                edits.append(
                    set_value(doc, element, name, _USER_GROUPS.sub("group_ids", value), "renamed-groups-id")
                )
                site.report.count("renamed-groups-id")
        inner = element_text(doc, element) if element.tag == "field" else None
        if inner is not None and _USER_GROUPS.search(doc.text[inner[0] : inner[1]]):
            text = doc.text[inner[0] : inner[1]]
            edits.append(Edit(inner[0], inner[1], _USER_GROUPS.sub("group_ids", text), "renamed-groups-id"))
            site.report.count("renamed-groups-id")
    return edits


def fix_target_inline(doc: XmlDocument, site: Site) -> list[Edit]:
    """A window action's ``target`` ``inline`` is gone in 19.0 (its selection has current, new,
    fullscreen, main): Odoo's own settings actions dropped the line, taking the default."""
    edits: list[Edit] = []
    for element in doc.root.iter("field"):
        if element.get("name") != "target" or (element.text or "").strip() != "inline" or len(element):
            continue
        if record_model(element) != "ir.actions.act_window":
            continue
        tag = doc.tag(element)
        edits.append(replace_element(doc.text, tag.start, tag.close_end, "", "removed-target-inline"))
        site.report.count("removed-target-inline")
    return edits


SEARCH_GROUP_GONE = ("expand", "string")


def fix_search_groups(doc: XmlDocument, site: Site) -> list[Edit]:
    """A ``<group>`` of a search view: inside ``<search>``, or (an inheriting view's addition)
    holding only filters. A form's group holds fields and keeps its title."""
    edits: list[Edit] = []
    for element in doc.root.iter("group"):
        if not in_arch(element) or not any(element.get(a) is not None for a in SEARCH_GROUP_GONE):
            continue
        children = [c for c in element if isinstance(c.tag, str)]
        in_search = any(a.tag == "search" for a in element.iterancestors())
        only_filters = bool(children) and all(c.tag in ("filter", "separator") for c in children)
        if not (in_search or only_filters):
            continue
        for name in SEARCH_GROUP_GONE:
            if element.get(name) is not None:
                edits.append(replace_attribute(doc, element, name, [], "removed-search-group-attributes"))
        site.report.count("removed-search-group-attributes")
    return edits
