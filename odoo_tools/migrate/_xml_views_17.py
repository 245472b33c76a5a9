"""16.0 -> 17.0 in view archs: ``attrs`` and ``states`` become Python expressions in the
``invisible``/``readonly``/``required``/``column_invisible`` attributes themselves."""

from __future__ import annotations

from lxml import etree

from odoo_tools.migrate._attrs import Untranslatable, attrs_expressions, combine_or, states_expression
from odoo_tools.migrate._edits import Edit, line_of
from odoo_tools.migrate._report import Site
from odoo_tools.migrate._xml_edit import in_arch, replace_attribute, set_value
from odoo_tools.migrate._xml_tags import XmlDocument

MODIFIERS = ("invisible", "readonly", "required", "column_invisible")
_TRUE, _FALSE = ("1", "True", "true"), ("0", "False", "false")


def _merged(element: etree._Element, key: str, expression: str, combine: bool) -> str | None:
    """The attribute's new value; None when the existing static value already decides (Odoo 16
    let a true ``invisible="1"`` win over attrs)."""
    current = element.get(key)
    if current is None or current.strip() in _FALSE:
        return expression
    if current.strip() in _TRUE:
        return None
    return combine_or(current, expression) if combine else expression


def fix_attrs(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in doc.root.iter():
        if not isinstance(element.tag, str) or element.get("attrs") is None or not in_arch(element):
            continue
        line = line_of(doc.text, doc.tag(element).start)
        try:
            expressions = attrs_expressions(element.get("attrs") or "")
            unknown = sorted(set(expressions) - set(MODIFIERS))
            if unknown:
                raise Untranslatable(f"attrs key {unknown[0]!r} has no attribute of its own in 17.0")
        except Untranslatable as exc:
            site.report.find(
                "removed-attrs",
                site.path,
                line,
                f"attrs could not be rewritten: {exc}",
                "Write each condition as its own attribute, e.g. invisible=\"state != 'draft'\" "
                'readonly="...", and remove attrs (removed in 17.0: the view no longer loads).',
                severity="error",
            )
            continue
        replacement: list[tuple[str, str]] = []
        for key, expression in expressions.items():
            value = _merged(element, key, expression, combine=key == "invisible")
            if value is None:
                continue
            if key in doc.tag(element).attributes:
                edits.append(set_value(doc, element, key, value, "removed-attrs"))
            else:
                replacement.append((key, value))
        edits.append(replace_attribute(doc, element, "attrs", replacement, "removed-attrs"))
        site.report.count("removed-attrs")
    return edits


def fix_states(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in doc.root.iter():
        if not isinstance(element.tag, str) or element.get("states") is None or not in_arch(element):
            continue
        if element.tag not in ("button", "field", "div", "span", "group", "page", "header"):
            continue
        try:
            expression = states_expression(element.get("states") or "")
        except Untranslatable as exc:
            site.report.find(
                "removed-states",
                site.path,
                line_of(doc.text, doc.tag(element).start),
                str(exc),
                'Remove states and write invisible="state not in (...)".',
                severity="error",
            )
            continue
        value = _merged(element, "invisible", expression, combine=True)
        if value is not None and "invisible" in doc.tag(element).attributes:
            edits.append(set_value(doc, element, "invisible", value, "removed-states"))
            edits.append(replace_attribute(doc, element, "states", [], "removed-states"))
        else:
            replacement = [("invisible", value)] if value is not None else []
            edits.append(replace_attribute(doc, element, "states", replacement, "removed-states"))
        site.report.count("removed-states")
    return edits
