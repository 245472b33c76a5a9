"""17.0 -> 18.0 in XML: ``<tree>`` is ``<list>`` (tags, xpaths, view modes), the chatter is one
``<chatter/>`` element, and a storable product is a goods product with ``is_storable``."""

from __future__ import annotations

import re

from lxml import etree

from odoo_tools.migrate.engine.core_closure import sees_field
from odoo_tools.migrate.engine.edits import Edit, indentation_at, line_of
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_edit import (
    element_text,
    in_arch,
    record_model,
    rename,
    replace_element,
    set_value,
)
from odoo_tools.migrate.engine.xml_tags import XmlDocument

_TREE_STEP = re.compile(r"(?<![\w@'\"-])tree(?=$|[/\[\s|)])")
_MODE_TREE = re.compile(r"(?<![\w-])tree(?![\w-])")
_CHATTER_XPATH = re.compile(
    r"""div\[\s*(?:hasclass\(\s*['"]oe_chatter['"]\s*\)|@class\s*=\s*['"]oe_chatter['"])\s*\]"""
)
CHATTER_FIELDS = {"message_follower_ids", "activity_ids", "message_ids"}
PRODUCT_MODELS = {"product.template", "product.product"}


def _elements(doc: XmlDocument) -> list[etree._Element]:
    return [e for e in doc.root.iter() if isinstance(e.tag, str)]


def fix_tree(doc: XmlDocument, site: Site) -> list[Edit]:
    """<tree> elements of view archs, xpaths that step through one, and x2many ``mode``."""
    edits: list[Edit] = []
    for element in _elements(doc):
        if element.tag == "tree" and in_arch(element):
            edits += rename(doc, element, "list", "removed-tree")
            site.report.count("removed-tree")
        elif element.tag == "xpath" and in_arch(element) and _TREE_STEP.search(element.get("expr") or ""):
            expr = _TREE_STEP.sub("list", element.get("expr") or "")
            edits.append(set_value(doc, element, "expr", expr, "removed-tree"))
            site.report.count("removed-tree")
        elif element.tag == "field" and in_arch(element) and _MODE_TREE.search(element.get("mode") or ""):
            edits.append(
                set_value(
                    doc, element, "mode", _MODE_TREE.sub("list", element.get("mode") or ""), "removed-tree"
                )
            )
            site.report.count("removed-tree")
        if in_arch(element) and "tree_view_ref" in (element.get("context") or ""):
            context = (element.get("context") or "").replace("tree_view_ref", "list_view_ref")
            edits.append(set_value(doc, element, "context", context, "removed-tree"))
    return edits


def fix_view_mode(doc: XmlDocument, site: Site) -> list[Edit]:
    """``view_mode``/``binding_view_types`` lists of actions, and ``type`` of a view record."""
    edits: list[Edit] = []
    for element in _elements(doc):
        if element.tag != "field" or in_arch(element):
            continue
        name, model = element.get("name"), record_model(element)
        wanted = name in ("view_mode", "binding_view_types") or (name == "type" and model == "ir.ui.view")
        span = element_text(doc, element) if wanted else None
        if span is None:
            continue
        text = doc.text[span[0] : span[1]]
        if _MODE_TREE.search(text):
            edits.append(Edit(span[0], span[1], _MODE_TREE.sub("list", text), "removed-view-mode-tree"))
            site.report.count("removed-view-mode-tree")
    return edits


def fix_chatter(doc: XmlDocument, site: Site) -> list[Edit]:
    edits: list[Edit] = []
    for element in _elements(doc):
        if not in_arch(element):
            continue
        if element.tag == "xpath" and _CHATTER_XPATH.search(element.get("expr") or ""):
            edits.append(
                set_value(
                    doc,
                    element,
                    "expr",
                    _CHATTER_XPATH.sub("chatter", element.get("expr") or ""),
                    "replaced-oe-chatter",
                )
            )
            site.report.count("replaced-oe-chatter")
            continue
        if element.tag != "div" or "oe_chatter" not in (element.get("class") or "").split():
            continue
        tag = doc.tag(element)
        if element.get("position") or set(element.attrib) - {"class"}:
            continue
        children = [c for c in element if isinstance(c.tag, str)]
        plain = all(
            c.tag == "field" and c.get("name") in CHATTER_FIELDS and not c.get("groups") for c in children
        )
        if not plain or len(element) != len(children):
            site.report.find(
                "replaced-oe-chatter",
                site.path,
                line_of(doc.text, tag.start),
                'This <div class="oe_chatter"> holds more than the standard chatter fields.',
                'In 18.0 write <chatter/> (options as its attributes, e.g. reload_on_post="True") and '
                "move anything else out of the chatter.",
            )
            continue
        edits.append(Edit(tag.start, tag.close_end, "<chatter/>", "replaced-oe-chatter"))
        site.report.count("replaced-oe-chatter")
    return edits


def fix_product_type(doc: XmlDocument, site: Site) -> list[Edit]:
    """``type``/``detailed_type`` 'product' of a product record: 'consu' plus ``is_storable``."""
    edits: list[Edit] = []
    for element in _elements(doc):
        if element.tag != "field" or record_model(element) not in PRODUCT_MODELS:
            continue
        name = element.get("name")
        if name not in ("type", "detailed_type"):
            continue
        span = element_text(doc, element)
        value = element.text.strip() if element.text else ""
        if span is None or element.get("eval") or element.get("ref"):
            continue
        tag = doc.tag(element)
        if name == "detailed_type":
            edits.append(
                Edit(tag.start + 1, tag.end, _renamed_name(doc, tag.start, tag.end), "removed-detailed-type")
            )
            site.report.count("removed-detailed-type")
        if value == "product":
            edits.append(Edit(span[0], span[1], "consu", "removed-product-type-product"))
            site.report.count("removed-product-type-product")
            if not sees_field(site.report, "product.template", "is_storable"):
                continue  # stock's field: a module without stock has goods products only
            indent = indentation_at(doc.text, tag.start)
            edits.append(
                Edit(
                    tag.close_end,
                    tag.close_end,
                    f'\n{indent}<field name="is_storable" eval="True"/>',
                    "removed-product-type-product",
                )
            )
    return edits


def _renamed_name(doc: XmlDocument, start: int, end: int) -> str:
    return re.sub(r"""(name\s*=\s*["'])detailed_type(["'])""", r"\1type\2", doc.text[start + 1 : end])


CRON_FIELDS = ("numbercall", "doall")


def fix_cron_fields(doc: XmlDocument, site: Site) -> list[Edit]:
    """ir.cron lost ``numbercall`` and ``doall`` in 18.0 (an install error on the field): every job
    repeats until deactivated. A job that ran a limited number of times is also a finding."""
    edits: list[Edit] = []
    for element in _elements(doc):
        if (
            element.tag != "field"
            or element.get("name") not in CRON_FIELDS
            or record_model(element) != "ir.cron"
        ):
            continue
        tag = doc.tag(element)
        value = (element.get("eval") or element.text or "").strip()
        if element.get("name") == "numbercall" and value not in ("-1", ""):
            site.report.find(
                "removed-cron-numbercall",
                site.path,
                line_of(doc.text, tag.start),
                f"This job ran {value} time(s) only; 18.0 crons repeat until deactivated.",
                "Deactivate the job from its own code after the last run (self.env.ref(...).active = False).",
            )
        edits.append(replace_element(doc.text, tag.start, tag.close_end, "", "removed-cron-numbercall"))
        site.report.count("removed-cron-numbercall")
    return edits


ATTRIBUTE_SPEC_KEYS = ("name", "add", "remove", "separator")


def fix_attribute_spec(doc: XmlDocument, site: Site) -> list[Edit]:
    """An ``<attribute>`` of a ``position="attributes"`` spec takes only name/add/remove/separator
    and ``data-oe-*`` in 18.0 (odoo/tools/template_inheritance.py: any other, e.g.
    ``translation="off"``, fails the install): the others are dropped. Only where Odoo's own
    inheritance applies the spec: a module that extends the view inheritance itself, or depends on
    a module outside the core (which may), gets a warning instead."""
    edits: list[Edit] = []
    report = site.report
    odoo_applies = report.core_closure is not None and not report.extends_view_inheritance
    for element in doc.root.iter("attribute"):
        spec = element.getparent()
        if not in_arch(element) or spec is None or spec.get("position") != "attributes":
            continue
        tag = doc.tag(element)
        unknown = [k for k in tag.attributes if k not in ATTRIBUTE_SPEC_KEYS and not k.startswith("data-oe-")]
        if unknown and not odoo_applies:
            report.find(
                "strict-attribute-spec",
                site.path,
                line_of(doc.text, tag.start),
                f"<attribute> with {', '.join(unknown)}: Odoo 18.0's view inheritance rejects it, unless "
                "an extension of the view inheritance this module has or depends on accepts it.",
                "Keep it only if such an extension (e.g. a module overriding apply_inheritance_specs) "
                "reads it on 18.0; else remove it.",
            )
            continue
        for key, attribute in tag.attributes.items():
            if key not in ATTRIBUTE_SPEC_KEYS and not key.startswith("data-oe-"):
                edits.append(Edit(attribute.start, attribute.end, "", "strict-attribute-spec"))
                site.report.count("strict-attribute-spec")
    return edits
