"""16.0 -> 17.0 in view archs: ``attrs`` and ``states`` become Python expressions in the
``invisible``/``readonly``/``required``/``column_invisible`` attributes themselves."""

from __future__ import annotations

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit, indentation_at, line_of
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_edit import (
    add_attribute,
    field_name,
    in_arch,
    replace_attribute,
    replace_element,
    set_value,
)
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.migrate.steps.to_17.attrs import (
    Untranslatable,
    attrs_expressions,
    combine_or,
    states_expression,
)

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


def fix_attribute_overrides(doc: XmlDocument, site: Site) -> list[Edit]:
    """Inherited views: ``<attribute name="attrs">{'invisible': [...]}</attribute>`` becomes one
    ``<attribute name="invisible">expr</attribute>`` per key, ``<attribute name="states">`` an
    ``invisible`` one. Odoo 17 refuses a view that still sets attrs or states."""
    edits: list[Edit] = []
    for element in doc.root.iter("attribute"):
        name = element.get("name")
        if name not in ("attrs", "states") or not in_arch(element) or len(element):
            continue
        tag = doc.tag(element)
        line = line_of(doc.text, tag.start)
        rule = "removed-attrs" if name == "attrs" else "removed-states"
        try:
            if name == "states":
                expressions = {"invisible": states_expression(element.text or "")}
            else:
                expressions = attrs_expressions(element.text or "")
                unknown = sorted(set(expressions) - set(MODIFIERS))
                if unknown:
                    raise Untranslatable(f"attrs key {unknown[0]!r} has no attribute of its own in 17.0")
        except Untranslatable as exc:
            site.report.find(rule, site.path, line, f"{name} could not be rewritten: {exc}",
                             "Set each condition with its own <attribute name=\"invisible\">...</attribute>.",
                             severity="error")  # fmt: skip
            continue
        indent = indentation_at(doc.text, tag.start)
        if not expressions:
            site.report.find(
                rule, site.path, line,
                "attrs={} cleared the inherited view's conditions; 17.0 has no attrs to clear.",
                "Set <attribute name=\"invisible\">False</attribute> (or readonly/required) for each "
                "condition of the parent view that must go.",
            )  # fmt: skip
        attributes = [
            f'<attribute name="{key}">{_text(value)}</attribute>' for key, value in expressions.items()
        ]
        edits.append(
            replace_element(doc.text, tag.start, tag.close_end, f"\n{indent}".join(attributes), rule)
        )
        site.report.count(rule)
    return edits


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;")


def fix_moved_modifiers(doc: XmlDocument, site: Site) -> list[Edit]:
    """The module's views of a model show its fields with the readonly their Python ``states=``
    gave in 16.0 (moved there by the Python rule of the same id): ``<field name="check_total"
    readonly="state != 'draft'"/>``. A view that already says readonly for the field keeps it
    (in 16.0 the view's own attribute won too)."""
    moved = site.report.moved_modifiers
    if not moved:
        return []
    edits: list[Edit] = []
    for record in doc.root.iter("record"):
        model_field = record.find("field[@name='model']")
        arch = record.find("field[@name='arch']")
        model = (model_field.text or "").strip() if model_field is not None else ""
        if record.get("model") != "ir.ui.view" or arch is None or not model:
            continue
        for element in _fields_of_view(arch):
            for key, expression in moved.get((model, field_name(element)), {}).items():
                if element.get(key) is None:
                    edits.append(add_attribute(doc, element, key, expression, "removed-field-states"))
                    site.report.count("removed-field-states")
    return edits


def _fields_of_view(node: etree._Element) -> list[etree._Element]:
    """The ``<field>`` elements showing a field of the view's own model: not the specs of an
    inheriting view (``position=``), not those inside a relational field's sub-view."""
    found: list[etree._Element] = []
    for child in node:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "field" and child.get("position") is None:
            found.append(child)
        else:
            found += _fields_of_view(child)
    return found
