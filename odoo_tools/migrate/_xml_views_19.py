"""18.0 -> 19.0 in XML: ``groups_id`` is ``group_ids`` on the models that restrict by group
(res.users, menus, views, window/server/report actions), in data records and in their views."""

from __future__ import annotations

from lxml import etree

from odoo_tools.migrate._edits import Edit
from odoo_tools.migrate._report import Site
from odoo_tools.migrate._xml_edit import in_arch, record_model, set_value
from odoo_tools.migrate._xml_tags import XmlDocument

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
        if element.get("name") != "groups_id":
            continue
        model = _view_model(element) if in_arch(element) else record_model(element)
        if model in GROUP_MODELS:
            edits.append(set_value(doc, element, "name", "group_ids", "renamed-groups-id"))
            site.report.count("renamed-groups-id")
    return edits
