"""19.0 -> 20.0 in XML, what Odoo's own upgrade_code scripts of 19.2 to 20.0 rewrite (so a module
moves without the 20.0 source at hand; with it, those scripts run first and leave these nothing
to do): date filters lose ``start_month``/``end_month``/``start_year``/``end_year`` (20.0's RNG
rejects them), ``<field type="base64" file=...>`` is ``type="bytes"``, ``t-esc`` is ``t-out``
(also where an xpath looks for one: 20.0's own templates say ``t-out``)."""

from __future__ import annotations

import re

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_edit import replace_attribute, set_value
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.series import API_CHANGES

# The registry's attributes of <filter> that a series removed (20.0's date ranges): name -> change id.
_FILTER_RANGES = {
    change.old: change.id
    for change in API_CHANGES
    if change.kind == "xml-attribute" and change.element == "filter"
}


def _elements(doc: XmlDocument) -> list[etree._Element]:
    return [element for element in doc.root.iter() if isinstance(element.tag, str)]


def fix_date_filter_ranges(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in doc.root.iter("filter"):
        for name, change in _FILTER_RANGES.items():
            if element.get(name) is not None:
                edits.append(replace_attribute(doc, element, name, [], change))
                site.report.count(change)
    return edits


def fix_base64_files(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in doc.root.iter("field"):
        if element.get("type") == "base64" and element.get("file") is not None:
            edits.append(set_value(doc, element, "type", "bytes", "renamed-type-base64"))
            site.report.count("renamed-type-base64")
    return edits


_XPATH_T_ESC = re.compile(r"@t-esc\b")


def fix_t_esc(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in _elements(doc):
        if element.get("t-esc") is not None and element.get("t-out") is None:
            attribute = doc.tag(element).attributes["t-esc"]
            name_at = doc.text.index("t-esc", attribute.start, attribute.value_start)
            edits.append(Edit(name_at, name_at + len("t-esc"), "t-out", "replaced-t-esc"))
            site.report.count("replaced-t-esc")
        expr = element.get("expr")
        if element.tag == "xpath" and expr and _XPATH_T_ESC.search(expr):
            edits.append(set_value(doc, element, "expr", _XPATH_T_ESC.sub("@t-out", expr), "replaced-t-esc"))
            site.report.count("replaced-t-esc")
    return edits
