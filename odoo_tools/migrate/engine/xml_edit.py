"""Small edits of XML text at an element's offsets: rename a tag, set or drop an attribute,
replace an element's text, wrap its content. Nothing else of the file changes."""

from __future__ import annotations

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit, indentation_at
from odoo_tools.migrate.engine.xml_tags import XmlDocument, quote_attribute


def rename(doc: XmlDocument, element: etree._Element, new: str, rule: str) -> list[Edit]:
    tag = doc.tag(element)
    edits = [Edit(tag.start + 1, tag.start + 1 + len(tag.name), new, rule)]
    if not tag.self_closing:
        edits.append(Edit(tag.close_start + 2, tag.close_start + 2 + len(tag.name), new, rule))
    return edits


def wrap_content(doc: XmlDocument, element: etree._Element, tag: str, rule: str) -> list[Edit]:
    """The element's content inside a new ``<tag>``, one level deeper when it is laid out one
    element a line."""
    tags = doc.tag(element)
    if tags.self_closing:
        return []
    start, end = tags.inner
    content = doc.text[start:end]
    outer = indentation_at(doc.text, tags.start)
    lines = content.split("\n")
    if len(lines) < 3 or lines[0].strip() or lines[-1] != outer:
        return [Edit(start, end, f"<{tag}>{content}</{tag}>", rule)]
    child = indentation_at(doc.text, start + len(lines[0]) + 1)
    unit = child[len(outer) :] if child.startswith(outer) and len(child) > len(outer) else "    "
    deeper = [unit + line if line.strip() else line for line in lines[1:-1]]
    return [
        Edit(start, end, "\n".join([lines[0], f"{child}<{tag}>", *deeper, f"{child}</{tag}>", outer]), rule)
    ]


def set_value(doc: XmlDocument, element: etree._Element, name: str, value: str, rule: str) -> Edit:
    """Replace an existing attribute's value (keeping its quotes when they still fit)."""
    attribute = doc.tag(element).attributes[name]
    escaped, quote = quote_attribute(value, attribute.quote)
    if quote == attribute.quote:
        return Edit(attribute.value_start, attribute.value_end, escaped, rule)
    return Edit(attribute.value_start - 1, attribute.value_end + 1, f"{quote}{escaped}{quote}", rule)


def attribute_text(name: str, value: str, quote: str = '"') -> str:
    escaped, used = quote_attribute(value, quote)
    return f"{name}={used}{escaped}{used}"


def add_attribute(doc: XmlDocument, element: etree._Element, name: str, value: str, rule: str) -> Edit:
    """A new attribute after the element's last one, laid out like it (same line or its own)."""
    tag = doc.tag(element)
    if not tag.attributes:
        at = tag.start + 1 + len(tag.name)
        return Edit(at, at, " " + attribute_text(name, value), rule)
    last = list(tag.attributes.values())[-1]
    text = doc.text[last.start : last.end]
    lead = text[: len(text) - len(text.lstrip())]
    return Edit(last.end, last.end, f"{lead}{attribute_text(name, value, last.quote)}", rule)


def replace_attribute(
    doc: XmlDocument, element: etree._Element, name: str, replacement: list[tuple[str, str]], rule: str
) -> Edit:
    """Put ``replacement`` attributes where attribute ``name`` was, with its leading whitespace."""
    attribute = doc.tag(element).attributes[name]
    text = doc.text[attribute.start : attribute.end]
    lead = text[: len(text) - len(text.lstrip())]
    new = "".join(f"{lead}{attribute_text(n, v, attribute.quote)}" for n, v in replacement)
    return Edit(attribute.start, attribute.end, new, rule)


def element_text(doc: XmlDocument, element: etree._Element) -> tuple[int, int] | None:
    """Offsets of a childless element's text (None when it has children or comments)."""
    if len(element):
        return None
    tag = doc.tag(element)
    return tag.inner


def field_name(element: etree._Element) -> str:
    return str(element.get("name") or "")


def in_arch(element: etree._Element) -> bool:
    """Inside a view's arch: ``<field name="arch">`` of a record (or a <template>'s body is not)."""
    parent = element.getparent()
    while parent is not None:
        if parent.tag == "field" and parent.get("name") == "arch":
            return True
        parent = parent.getparent()
    return False


def record_model(element: etree._Element) -> str:
    """The model of the <record> holding ``element`` ('' outside a record)."""
    parent = element.getparent()
    while parent is not None:
        if parent.tag == "record":
            return str(parent.get("model") or "")
        parent = parent.getparent()
    return ""


def replace_element(text: str, start: int, end: int, new: str, rule: str) -> Edit:
    """Replace an element; with nothing, its whole line goes when nothing else is on it."""
    if new:
        return Edit(start, end, new, rule)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if not text[line_start:start].strip() and not text[end:line_end].strip():
        return Edit(line_start, min(line_end + 1, len(text)), "", rule)
    return Edit(start, end, "", rule)
