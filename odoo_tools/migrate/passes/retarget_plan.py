"""A retarget plan (the element a spec anchors on now, its position, why) and the offset edits
that write it into the spec: its ``expr`` (or ``name``), its ``position`` when it changes, or,
when another tag is needed, the spec made an ``<xpath>``."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.xml_edit import (
    attribute_text,
    rename,
    replace_attribute,
    set_value,
    wrap_content,
)
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.view_inheritance import locating_attributes

RULE = "retargeted-view-anchor"


@dataclass(frozen=True)
class Plan:
    target: etree._Element | None  # None: remove the spec
    position: str
    why: str
    locator: tuple[str, str, str] = ("", "", "")  # (tag, attribute, value) finding target alone
    more: tuple[tuple[str, str], ...] = ()  # further attributes the locator needs (several fields of a name)
    suffix: str = ""  # parent steps after the locator ("/..": the spec's anchor is its parent)
    lost: bool = False  # a removal drops what the spec added (its anchor has no place left)
    wrap: str = ""  # the tag of a new element the spec's content goes into (pages: "notebook")

    @property
    def expr(self) -> str:
        tag, attribute, value = self.locator
        if not attribute:  # the view's root: the first of its tag in document order
            return f"//{tag}"
        tests = "".join(f"[@{name}={_quoted(text)}]" for name, text in ((attribute, value), *self.more))
        return f"//{tag}{tests}{self.suffix}"


def _quoted(value: str) -> str:
    quote = "'" if "'" not in value else '"'
    return f"{quote}{value}{quote}"


def spec_edits(doc: XmlDocument, spec: etree._Element, plan: Plan) -> list[Edit]:
    """Offset edits that make ``spec`` target ``plan``'s element at ``plan``'s position."""
    tag, attribute, value = plan.locator
    tags = doc.tag(spec)
    edits: list[Edit] = []
    locating = list(locating_attributes(spec))
    if spec.tag == "xpath" and "expr" in tags.attributes:
        edits.append(set_value(doc, spec, "expr", plan.expr, RULE))
    elif (
        spec.tag == tag and attribute == "name" and (locating == ["name"] or tag == "field") and not plan.more
    ):
        edits.append(set_value(doc, spec, "name", value, RULE))
    else:
        edits += rename(doc, spec, "xpath", RULE)
        present = [name for name in locating if name in tags.attributes]
        if present:
            edits.append(replace_attribute(doc, spec, present[0], [("expr", plan.expr)], RULE))
            edits += [Edit(tags.attributes[n].start, tags.attributes[n].end, "", RULE) for n in present[1:]]
        else:
            end = tags.start + 1 + len(tags.name)
            edits.append(Edit(end, end, " " + attribute_text("expr", plan.expr), RULE))
    if plan.position != str(spec.get("position") or "inside"):
        if "position" in tags.attributes:
            edits.append(set_value(doc, spec, "position", plan.position, RULE))
        else:
            ends = [a.end for a in tags.attributes.values()] or [tags.start + 1 + len(tags.name)]
            edits.append(Edit(max(ends), max(ends), " " + attribute_text("position", plan.position), RULE))
    if plan.wrap:
        edits += wrap_content(doc, spec, plan.wrap, RULE)
    return edits
