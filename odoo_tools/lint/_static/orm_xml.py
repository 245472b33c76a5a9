"""The names a module's XML data gives the ORM: record models and fields, action models, and
every ``<field name>`` of a view's arch, on the model the ORM will check it against.

A primary view's fields belong to its model, an x2many field's inline sub-views to the comodel.
An inheriting view's new nodes go where its anchor is; the anchor may sit in an inline sub-view
of the parent (``//field[@name='product_id']`` in a sale order form is the order line's), so a
field there is reported only when no candidate has it: the view's model or any x2many comodel,
after following the fields an ``xpath`` descends through. Files are parsed with lxml, entities
and network off.
"""

from __future__ import annotations

import re

from lxml import etree

from odoo_tools.findings import Finding
from odoo_tools.index import X2MANY, ModelResolver, qualify
from odoo_tools.lint._static.arch_names import XmlFileChecks, walk_arch
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.core_answers import python_read
from odoo_tools.lint._static.xpath_context import xpath_contexts
from odoo_tools.series import record_values
from odoo_tools.storage import read_capped

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
_XPATH_FIELD = re.compile(r"""field\[@name\s*=\s*['"](\w+)['"]\]""")
_COLUMNS = frozenset({"/list/", "/tree/"})
MAX_CANDIDATES = 256  # models a spec's node may belong to; more: not judged


def check_orm_xml(ctx: StaticContext) -> list[Finding]:
    found: list[Finding] = []
    for rel in dict.fromkeys(ctx.loaded_files):
        if not rel.endswith(".xml"):
            continue
        try:
            data = read_capped(ctx.absolute(rel))
            if data is None:
                continue  # over the cap: the index says so (file-too-large)
            root = etree.fromstring(data, _PARSER)
        except (OSError, etree.XMLSyntaxError, ValueError):
            continue  # reported by the index (xml-syntax) or the manifest check
        if root.tag not in ("odoo", "openerp", "data"):
            continue
        out = XmlFileChecks(ctx, rel, data.decode("utf-8", errors="replace"))
        for record in root.iter("record"):
            _record(out, record)
        found += out.found
    return found


def _record(out: XmlFileChecks, record: etree._Element) -> None:
    resolver = out.ctx.resolver
    model = record.get("model", "")
    if not model:
        return
    if resolver.defined_anywhere(model) is False:
        out.report(
            "record-model-unknown",
            f"<record model={model!r}>: no module defines model {model!r}",
            "Check the model name.",
            out.line(record, "model"),
        )
        return
    resolved = resolver.model(model)
    accepted = record_values(out.ctx.series, model)  # taken by the model's create/write
    values: dict[str, etree._Element] = {}
    for child in record:
        if child.tag != "field" or not child.get("name"):
            continue
        name = child.get("name", "")
        values[name] = child
        # x_ is the prefix Odoo demands of manual fields (ir.model.fields), which data loaded before
        # may create (website_attribute_set 19.0's demo attributes make product.template's)
        if resolved.has_field(name) is False and not name.startswith("x_") and name not in accepted:
            out.report(
                "record-field-unknown",
                f"<record model={model!r}> sets field {name!r}, which {model} does not have",
                "Check the field name (find_model shows the model's fields).",
                out.line(child, "name"),
            )
    if model == "ir.actions.act_window" and "res_model" in values:
        res_model = (values["res_model"].text or "").strip()
        if res_model and resolver.defined_anywhere(res_model) is False:
            out.report(
                "action-model-unknown",
                f"Window action opens model {res_model!r}, which no module defines",
                "Check res_model.",
                out.line(values["res_model"], "name"),
            )
    if model == "ir.ui.view" and "arch" in values:
        _view(out, record, values)


def _view(out: XmlFileChecks, record: etree._Element, values: dict[str, etree._Element]) -> None:
    arch = next((el for el in values["arch"] if isinstance(el.tag, str)), None)
    if arch is None or values["arch"].get("type", "xml") != "xml":
        return
    kind = values.get("type")
    if kind is not None and (kind.text or "").strip() == "qweb":
        return  # a QWeb template: its <field> elements are not the ORM's
    inherit = values.get("inherit_id")
    parent = qualify(inherit.get("ref", ""), out.ctx.addon.name) if inherit is not None else ""
    model_node = values.get("model")
    model = (model_node.text or "").strip() if model_node is not None else parent_model(out.ctx, parent)
    if not model or arch.tag in ("t", "template", "qweb"):
        return
    resolver = out.ctx.resolver
    # A Python file of the closure that did not parse may define the model: its syntax error is
    # the finding, not the view that follows from it.
    if model_node is not None and resolver.defined_anywhere(model) is False and python_read(out.ctx):
        out.report(
            "view-model-unknown",
            f"View of model {model!r}: no module defines model {model!r}",
            "Check the model name (find_model lists the models).",
            out.line(model_node, "name"),
        )
        return
    if not parent:
        walk_arch(out, resolver, arch, (model,))
        return
    # Odoo wraps several top-level specs in <data>, as a <data> root holds them.
    specs = [el for el in values["arch"] if isinstance(el.tag, str)]
    if len(specs) == 1 and arch.tag == "data":
        specs = list(arch)
    for spec in specs:
        if not isinstance(spec.tag, str):
            continue
        position = spec.get("position", "inside")
        _anchor(out, resolver, model, spec)
        if position == "attributes":
            continue
        if spec.tag == "xpath":
            expr = spec.get("expr", "")
            contexts = xpath_contexts(resolver, model, expr, position, lambda _, m, d: _candidates(out, m, d))
        elif spec.tag == "field" and position == "inside":
            contexts = ()  # new inline sub-views of that field: rare, left alone
        else:
            contexts = _candidates(out, model)
        if contexts:
            walk_arch(out, resolver, spec, contexts)


def _anchor(out: XmlFileChecks, resolver: ModelResolver, model: str, spec: etree._Element) -> None:
    """A field an inheriting spec locates (``<field name="x" position=...>``, the fields of an
    ``xpath``) must be in the parent view, so on its model or in an inline sub-view (two levels):
    a name no candidate has cannot be located, and Odoo refuses the view."""
    if spec.tag == "field" and spec.get("name"):
        steps, attr = [(spec.get("name", ""), False)], "name"
    elif spec.tag == "xpath":
        expr = spec.get("expr", "")
        matches = list(_XPATH_FIELD.finditer(expr))
        # Only a plain downward path is followed; '..' or an axis may leave the field again.
        plain = ".." not in expr and "::" not in expr
        steps = [(m.group(1), plain and bool(expr[m.end() :].strip(" /"))) for m in matches]
        # ".../list/field[@name='x']": x is a column of that list, on its model exactly.
        exact = [
            i > 0 and plain and expr[matches[i - 1].end() : m.start()] in _COLUMNS
            for i, m in enumerate(matches)
        ]
        attr = "expr"
    else:
        return
    current = model
    for index, (name, descends) in enumerate(steps):
        contexts = (current,) if attr == "expr" and exact[index] else _candidates(out, current, depth=2)
        verdicts = out.verdicts(contexts, name)
        if not contexts:
            return
        if all(v is False for v in verdicts):
            out.report(
                "view-anchor-unknown",
                f'Field "{name}" cannot be located in the parent view: {current} has no such field '
                "(nor any model of its inline sub-views)",
                "Anchor on a field the parent view shows (find_xml_id gives its inheritance chain).",
                out.line(spec, attr),
            )
            return
        if not descends:
            return
        subs = {c for m, v in zip(contexts, verdicts, strict=True) if v and (c := resolver.comodel(m, name))}
        if len(subs) != 1:
            return
        current = subs.pop()


def parent_model(ctx: StaticContext, parent: str) -> str:
    """The model of an inheriting view without ``model``: its ancestors'."""
    seen: set[str] = set()
    while parent and parent not in seen and parent in ctx.tables.views:
        seen.add(parent)
        view = ctx.tables.views[parent][-1].item
        if view.model:
            return view.model
        parent = view.inherit_id
    return ""


def _candidates(out: XmlFileChecks, model: str, depth: int = 1) -> tuple[str, ...]:
    """The models a node placed near an unknown anchor may belong to: ``model`` and the comodel
    of each of its x2many fields (their inline sub-views), ``depth`` levels down; () when one of
    them cannot be told, or when there are over ``MAX_CANDIDATES`` (each spec's names are looked
    up in every candidate: a wide fan-out times 20,000 specs was quadratic). Cached per file."""
    key = (model, depth)
    if key not in out.candidates:
        found = _uncached_candidates(out, model, depth)
        out.candidates[key] = found if len(found) <= MAX_CANDIDATES else ()
    return out.candidates[key]


def _uncached_candidates(out: XmlFileChecks, model: str, depth: int) -> tuple[str, ...]:
    resolver = out.ctx.resolver
    if depth > 1:
        found: list[str] = []
        for comodel in _candidates(out, model):
            deeper = _candidates(out, comodel, depth - 1) if comodel != model else (model,)
            if not deeper:
                return ()
            found.extend(deeper)
        return tuple(dict.fromkeys(found))
    comodels = [
        located.item.comodel or resolver.comodel(model, name) or ""
        for name, located in resolver.model(model).fields.items()
        if located.item.type in X2MANY
    ]
    # The bundled core list merges every core module: a field of a module outside the closure
    # (website's on res.partner) is not in the parent view this module sees.
    comodels = [c for c in comodels if not resolver.outside_closure(c)]
    if any(not c for c in comodels):
        return ()  # an x2many whose comodel is unknown: its sub-view could hold anything
    return tuple(dict.fromkeys([model, *comodels]))
