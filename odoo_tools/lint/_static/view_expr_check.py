"""The field names inside a module's view expressions, checked on the model each node sees.

Odoo 17+ validates, when it installs a view: the free names of ``invisible``/``readonly``/
``required``/``column_invisible``/``decoration-*`` and of ``context`` values (each must be a field of
the node's model; ``parent.x`` a field of the model of the view holding the inline sub-view), a
context's ``group_by`` field, and the field paths of a relational ``<field domain>`` (on the
comodel) and of a ``<filter domain>`` (on the model). A search field's ``filter_domain`` and a
window action's ``domain`` are read only when the user searches or opens it: warnings.

A primary view's nodes belong to its model, an x2many field's inline sub-views to its comodel. An
inheriting view's nodes go where its anchor is, maybe inside an inline sub-view of the parent: a
name is claimed absent only when no model the node may belong to has it (the model and its
x2many comodels, two levels down, as the view field check does). Nothing is evaluated.
"""

from __future__ import annotations

from lxml import etree

from odoo_tools.findings import Finding
from odoo_tools.index import qualify
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.field_domains import check_field_domains
from odoo_tools.lint._static.orm_xml import parent_model
from odoo_tools.lint._static.view_expr_file import Sees, ViewExprFile
from odoo_tools.lint._static.view_expressions import (
    attrs_names,
    context_group_by,
    domain_names,
    expression_names,
)
from odoo_tools.lint._static.view_places import parent_type, stays_on_top
from odoo_tools.lint._static.xpath_context import Candidates, xpath_contexts
from odoo_tools.storage import read_capped

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
_MODIFIERS = ("invisible", "readonly", "required", "column_invisible")
_SUBVIEWS = frozenset({"list", "tree", "form", "kanban", "graph", "pivot", "calendar", "activity"})


def check_view_expressions(ctx: StaticContext) -> list[Finding]:
    found: list[Finding] = []
    in_forms: set[tuple[str, str]] = set()
    for rel in dict.fromkeys(ctx.loaded_files):
        if not rel.endswith(".xml"):
            continue
        try:
            data = read_capped(ctx.absolute(rel))
            if data is None:
                continue
            root = etree.fromstring(data, _PARSER)
        except (OSError, etree.XMLSyntaxError, ValueError):
            continue  # the index reports it
        if root.tag not in ("odoo", "openerp", "data"):
            continue
        out = ViewExprFile(ctx, rel, data.decode("utf-8", errors="replace"))
        for record in root.iter("record"):
            fields = {c.get("name", ""): c for c in record if c.tag == "field"}
            if record.get("model") == "ir.ui.view" and "arch" in fields:
                _view(out, fields)
            elif record.get("model") == "ir.actions.act_window":
                _action(out, fields)
        found += out.found
        in_forms |= out.in_forms
    return found + check_field_domains(ctx, in_forms)


def _action(out: ViewExprFile, fields: dict[str, etree._Element]) -> None:
    res_model, domain = fields.get("res_model"), fields.get("domain")
    if res_model is None or domain is None or domain.get("eval") is not None:
        return
    model = (res_model.text or "").strip()
    if model:
        _paths(
            out, domain, "", domain.text or "", model, "action-domain-field-unknown", "the action's domain"
        )


def _view(out: ViewExprFile, fields: dict[str, etree._Element]) -> None:
    arch_field = fields["arch"]
    arch = next((el for el in arch_field if isinstance(el.tag, str)), None)
    kind = fields.get("type")
    if arch is None or arch_field.get("type", "xml") != "xml" or arch.tag in ("t", "template", "qweb"):
        return
    if kind is not None and (kind.text or "").strip() == "qweb":
        return
    inherit = fields.get("inherit_id")
    parent = qualify(inherit.get("ref", ""), out.ctx.addon.name) if inherit is not None else ""
    model_node = fields.get("model")
    model = (model_node.text or "").strip() if model_node is not None else parent_model(out.ctx, parent)
    if not model or out.resolver.defined_anywhere(model) is False:
        return  # no model: the view's model check says so
    if not parent:
        sees = Sees((model,), form=model if arch.tag == "form" else "")
        _node(out, arch, sees)  # <list decoration-danger=...> on the root itself
        _walk(out, arch, sees)
        return
    parent_kind = parent_type(out.ctx, parent)
    form = parent_kind == "form"
    specs = [el for el in arch_field if isinstance(el.tag, str)]
    if len(specs) == 1 and arch.tag == "data":
        specs = list(arch)
    for spec in specs:
        if not isinstance(spec.tag, str):
            continue
        position = spec.get("position", "inside")
        cands: tuple[str, ...]
        if parent_kind == "search":
            cands = (model,)  # a search view has no inline sub-views: every node is the model's
        elif spec.tag == "xpath":
            where = "after" if position == "attributes" else position
            cands = xpath_contexts(out.resolver, model, spec.get("expr", ""), where, _cands(out))
        elif spec.tag == "field" and position == "inside":
            cands = ()  # new inline sub-views of that field: rare, left alone
        else:
            cands = out.candidates(model)
        if not cands:
            continue
        if position == "attributes":
            _attributes(out, spec, cands)
        else:
            top = cands == (model,) or (spec.tag == "xpath" and stays_on_top(spec.get("expr", "")))
            _walk(out, spec, Sees(cands, form=model if form and top else ""))


def _cands(out: ViewExprFile) -> Candidates:
    return lambda _resolver, model, depth: out.candidates(model, depth)


def _attributes(out: ViewExprFile, spec: etree._Element, cands: tuple[str, ...]) -> None:
    """``<attribute name="invisible">expr</attribute>``: the expression lands on the located node."""
    target = spec.get("name", "") if spec.tag == "field" else ""
    if target:
        cands = tuple(m for m in cands if out.resolver.model(m).has_field(target) is not False)
    for attribute in spec:
        if attribute.tag != "attribute" or attribute.get("add") or attribute.get("remove"):
            continue
        name, text = attribute.get("name", ""), attribute.text or ""
        if name in _MODIFIERS or name.startswith("decoration-") or name == "context":
            _names(out, attribute, "", text, Sees(cands), name)
        elif name == "attrs" and out.reads_attrs:
            _attrs(out, attribute, "", text, Sees(cands))
        elif name == "domain" and target:
            comodels = {c for m in cands if (c := out.resolver.comodel(m, target))}
            if len(comodels) == 1:
                code = "view-domain-field-unknown"
                _paths(out, attribute, "", text, comodels.pop(), code, f'the domain of field "{target}"')
        elif name == "filter_domain" and len(cands) == 1:
            _paths(out, attribute, "", text, cands[0], "filter-domain-field-unknown", "filter_domain")


def _walk(out: ViewExprFile, node: etree._Element, sees: Sees) -> None:
    for child in node:
        if not isinstance(child.tag, str) or child.get("position") == "attributes":
            continue
        _node(out, child, sees)
        name = child.get("name", "")
        # Odoo checks a field's Python domain where the form lets the user edit the field
        editable = child.get("readonly") not in ("1", "True")
        if sees.form and child.tag == "field" and name and child.get("domain") is None and editable:
            out.in_forms.add((sees.form, name))
        subs: set[str] = set()
        if child.tag in ("field", "groupby") and name:
            subs = {c for m in sees.models if (c := out.resolver.comodel(m, name))}
        if child.tag == "field":
            for grand in child:
                if isinstance(grand.tag, str) and grand.tag in _SUBVIEWS and len(subs) == 1:
                    parent = sees.models[0] if len(sees.models) == 1 else ""
                    inner = Sees((next(iter(subs)),), parent)
                    _node(out, grand, inner)
                    _walk(out, grand, inner)
        elif child.tag == "groupby":
            if len(subs) == 1:
                _walk(out, child, Sees((subs.pop(),)))
        else:
            _walk(out, child, sees)


def _node(out: ViewExprFile, node: etree._Element, sees: Sees) -> None:
    for attr, text in node.items():
        if not isinstance(attr, str) or not isinstance(text, str):
            continue
        if attr in _MODIFIERS or attr.startswith("decoration-") or attr == "context":
            _names(out, node, attr, text, sees, attr)
        elif attr == "attrs" and out.reads_attrs:
            _attrs(out, node, attr, text, sees)
        elif attr == "domain" and node.tag == "filter" and len(sees.models) == 1:
            _paths(out, node, attr, text, sees.models[0], "view-domain-field-unknown", "the filter's domain")
        elif attr == "domain" and node.tag == "field":
            comodels = {c for m in sees.models if (c := out.resolver.comodel(m, node.get("name", "")))}
            if len(comodels) == 1:
                what = f'the domain of field "{node.get("name")}"'
                _paths(out, node, attr, text, comodels.pop(), "view-domain-field-unknown", what)
        elif attr == "filter_domain" and len(sees.models) == 1:
            _paths(out, node, attr, text, sees.models[0], "filter-domain-field-unknown", "filter_domain")


def _names(out: ViewExprFile, node: etree._Element, attr: str, text: str, sees: Sees, what: str) -> None:
    """Each free name of the expression is a field of the node's model (``parent.``: of the view
    around the inline sub-view); a context's group_by names one too."""
    names = expression_names(text, out.context_names)
    _fields(
        out, node, attr, names or set(), sees, f'{what}="{text.strip()}"', "view-expression-field-unknown"
    )
    group_by = context_group_by(text) if what == "context" else None
    if group_by and "," not in group_by and out.absent(sees.models, group_by):
        message = f'context groups by "{group_by}", which is no field of "{sees.models[0]}"'
        out.report("view-domain-field-unknown", message, node, attr)


def _fields(
    out: ViewExprFile, node: etree._Element, attr: str, names: set[str], sees: Sees, what: str, code: str
) -> None:
    for name in sorted(names):
        if name.startswith("parent."):
            rest = name[len("parent.") :]
            if sees.parent and "." not in rest and out.absent((sees.parent,), rest):
                out.report(
                    code, f'{what} uses parent.{rest}: "{sees.parent}" has no field "{rest}"', node, attr
                )
        elif name not in ("id", "parent") and out.absent(sees.models, name):
            message = f'{what} uses "{name}", which is no field of "{sees.models[0]}"'
            if len(sees.models) > 1:
                message += f" (nor of {', '.join(sees.models[1:])})"
            out.report(code, message, node, attr)


def _attrs(out: ViewExprFile, node: etree._Element, attr: str, text: str, sees: Sees) -> None:
    """16.0's ``attrs``: each left side of a domain leaf and each free name is a field of the node's
    model (16.0's ``NameManager`` wants it in the view; a name no field of the model fails either
    way). A dotted left side is judged by its first name only."""
    read = attrs_names(text, out.context_names)
    if read is not None:
        names = {p.split(".")[0] for p in read.paths} | read.values
        _fields(out, node, attr, names, sees, f'attrs="{" ".join(text.split())}"', "view-attrs-field-unknown")


def _paths(
    out: ViewExprFile, node: etree._Element, attr: str, text: str, model: str, code: str, what: str
) -> None:
    """Each field path on the left of the domain's leaves resolves on ``model``."""
    read = domain_names(text, out.context_names)
    for path in sorted(read.paths if read else ()):
        if path.split(".")[0] in ("parent", "id"):
            continue
        broken = out.resolver.broken_segment(model, path)
        if broken is not None:
            _index, name, on = broken
            out.report(code, f'{what} filters on "{path}": "{on}" has no field "{name}"', node, attr)
