"""What reading one XML data file collects, and how a node's line and literal attributes are read
(a record's line is its ``id=`` attribute's)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from odoo_tools.index._records import AccessRow, ActionDef, MenuDef, RuleDef, ViewDef, XmlRecord
from odoo_tools.index._xml_lines import attribute_line


@dataclass
class Collected:
    records: list[XmlRecord] = field(default_factory=list)
    views: list[ViewDef] = field(default_factory=list)
    menus: list[MenuDef] = field(default_factory=list)
    actions: list[ActionDef] = field(default_factory=list)
    rules: list[RuleDef] = field(default_factory=list)
    access: list[AccessRow] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the source, to place a record at its id=
    functions: list[int] = field(default_factory=list)


def id_line(node: etree._Element, out: Collected) -> int:
    return attribute_line(out.lines, source_line(node), "id")


def source_line(node: etree._Element) -> int:
    # lxml-stubs type sourceline loosely; it is an int, or None for built trees.
    line = getattr(node, "sourceline", None)
    return line if isinstance(line, int) else 0


def is_true(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes")


def as_int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
