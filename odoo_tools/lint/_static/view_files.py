"""The views a module's data files define (``ir.ui.view`` records and QWeb ``<template>``s), read
as a view chain holds them (``ChainView``): files the manifest lists, never one reaching outside
the module, parsed with entities and network off."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from odoo_tools.index import qualify
from odoo_tools.storage import read_capped

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)


@dataclass(frozen=True)
class ChainView:
    xml_id: str
    module: str
    model: str  # "" for QWeb templates
    parent: str | None  # the view it inherits, qualified
    primary: bool
    priority: int
    order: int  # creation order: Odoo sorts a view's children by (priority, id)
    arch: etree._Element  # a primary view's root element; an extension's spec (or <data>)
    skeleton: bool  # from the pack: text and most attribute values dropped
    path: str = ""  # root-relative file of a view read from a file
    line: int = 0


def file_views(folder: Path, module: str, files: tuple[str, ...]) -> list[ChainView]:
    found: list[ChainView] = []
    inside = folder.resolve()
    for rel in files:
        if not rel.endswith(".xml"):
            continue
        path = (folder / rel).resolve()
        if not path.is_relative_to(inside):
            continue  # a manifest entry reaching outside its module: never read
        try:
            data = read_capped(path)
            tree = etree.fromstring(data, _PARSER) if data is not None else None
        except (OSError, etree.XMLSyntaxError, ValueError):
            continue
        if tree is None or tree.tag not in ("odoo", "openerp", "data"):
            continue
        site = f"{module}/{rel}"
        for element in list(tree.iter("record", "template")):
            view = (
                _record(element, module, site)
                if element.tag == "record"
                else _template(element, module, site)
            )
            if view is not None:
                found.append(view)
    return found


def _record(record: etree._Element, module: str, site: str) -> ChainView | None:
    if record.get("model") != "ir.ui.view" or not record.get("id"):
        return None
    values = {str(f.get("name")): f for f in record.iterchildren("field")}
    arch_field = values.get("arch")
    if arch_field is None or arch_field.get("type", "xml") != "xml":
        return None
    roots = [child for child in arch_field if isinstance(child.tag, str)]
    if not roots:
        return None
    arch = roots[0] if len(roots) == 1 else _wrapped(roots)
    inherit = values.get("inherit_id")
    parent = qualify(str(inherit.get("ref") or ""), module) if inherit is not None else ""
    mode = values.get("mode")
    active = values.get("active")
    if active is not None and str(active.get("eval") or active.text or "").strip() in ("False", "0"):
        return None  # an inactive view is not combined (nor checked) until someone turns it on
    model = values.get("model")
    return ChainView(
        qualify(str(record.get("id")), module),
        module,
        (model.text or "").strip() if model is not None else "",
        parent or None,
        not parent or (mode is not None and (mode.text or "").strip() == "primary"),
        _priority(values.get("priority")),
        0,
        arch,
        False,
        site,
        _sourceline(record),
    )


def _template(template: etree._Element, module: str, site: str) -> ChainView | None:
    """A ``<template>`` as odoo/tools/convert.py makes it a view: ``<t t-name>`` or ``<data>``."""
    xml_id = template.get("id") or template.get("t-name")
    if not xml_id or template.get("active") == "False":
        return None
    full = qualify(str(xml_id), module)
    parent = qualify(str(template.get("inherit_id") or ""), module)
    arch = etree.Element("t" if not parent else "data")
    if not parent:
        arch.set("t-name", full)
    for child in template:
        if isinstance(child.tag, str):
            arch.append(child)  # moved out of the file's tree: its sourcelines stay
    if template.get("primary") == "True" and parent:  # convert.py's pseudo clone: the new t-name
        rename = etree.SubElement(arch, "xpath", expr=".", position="attributes")
        etree.SubElement(rename, "attribute", name="t-name").text = full
    try:
        priority = int(template.get("priority") or 16)
    except ValueError:
        priority = 16
    primary = not parent or template.get("primary") == "True"
    return ChainView(
        full, module, "", parent or None, primary, priority, 0, arch, False, site, _sourceline(template)
    )


def _wrapped(roots: list[etree._Element]) -> etree._Element:
    """Several top-level specs: Odoo reads them as one ``<data>``."""
    data = etree.Element("data")
    data.extend(roots)
    return data


def _priority(node: etree._Element | None) -> int:
    if node is None:
        return 16
    try:
        return int(str(node.get("eval") or node.text or 16).strip())
    except ValueError:
        return 16


def _sourceline(element: etree._Element) -> int:
    line = element.sourceline
    return line if isinstance(line, int) else 0
