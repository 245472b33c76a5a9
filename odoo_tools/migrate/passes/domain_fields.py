"""Core fields the step renamed (``series.field_renames``: read from the two series' packs), inside
the domains and field paths of a model the module names: an ``ir.rule``'s ``domain_force`` (its
``model_id``), a window action's ``domain`` (its ``res_model``), a saved filter's ``domain``, a
view's ``<filter domain>`` and ``<field name>`` (its ``model``), and in Python the domain given to
``env["model"].search(...)`` and its kin. ``('company_id', '=', x)`` on account.account becomes
``('company_ids', '=', x)`` (on a many2many, ``=`` matches the records whose set holds ``x``);
A relational field's ``domain=`` (its comodel's) too, in Python and on a view's ``<field>``; a
leaf's path is followed through the module's own relational fields and the pack's
(``('account_id.company_id', ...)`` renames ``company_id`` when ``account_id`` is an
account.account), so the module's own models' domains are read as well.
``('deprecated', '=', False)`` becomes ``('active', '=', True)``. A leaf of a flag turned around
that is not a plain ``=``/``!=`` of True or False is a warning, never a guess."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from lxml import etree

from odoo_tools.index import RELATIONAL
from odoo_tools.migrate.engine.edits import Edit, apply_edits, line_of
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.xml_edit import element_text, set_value
from odoo_tools.migrate.engine.xml_tags import XmlDocument, XmlParseError, read_xml
from odoo_tools.migrate.passes.domain_comodels import Comodels, relational_comodel
from odoo_tools.series import FieldRename, field_renames

RULE = "renamed-domain-field"
_Renames = Mapping[tuple[str, str], FieldRename]

# a leaf's field (path) right after the leaf's opening bracket: ('company_id.name', ...
_LEAF = re.compile(r"""(?P<open>[(\[]\s*)(?P<q>['"])(?P<name>\w+)(?P<rest>(?:\.\w+)*)(?P=q)(?=\s*,)""")
_FLAG_LEAF = re.compile(
    r"""(?P<open>[(\[]\s*)(?P<q>['"])(?P<name>\w+)(?P=q)\s*,\s*(?P<oq>['"])(?P<op>==?|!=)(?P=oq)\s*,\s*"""
    r"""(?P<value>True|False|1|0)(?P<close>\s*[)\]])"""
)
# the methods whose first argument (or domain=) is a domain on the receiver's model
_DOMAIN_METHODS = frozenset(
    {"search", "search_count", "search_read", "search_fetch", "_search", "read_group", "_read_group"}
)
_CHAINED = frozenset({"sudo", "with_context", "with_company", "with_user", "with_env"})


def rename_domain_fields(files: ModuleFiles, report: StepReport) -> None:
    renames = field_renames(str(report.source), str(report.target))
    if not renames:
        return
    comodels = Comodels(files.texts, str(report.source))
    for rel, text in sorted(files.texts.items()):
        if rel.startswith(("migrations/", "upgrades/")):
            continue
        if rel.endswith(".xml"):
            edits = _xml_edits(text, renames, report, files.site_path(rel), comodels)
        elif rel.endswith(".py"):
            edits = _python_edits(text, renames, report, files.site_path(rel), comodels)
        else:
            continue
        if edits:
            files.texts[rel], _ = apply_edits(text, edits)


def rewrite_domain(
    domain: str,
    model: str,
    renames: _Renames,
    report: StepReport,
    path: str,
    line: int,
    comodels: Comodels | None = None,
) -> str:
    """``domain`` (Python text) with the leaves on ``model``'s renamed fields renamed, and the
    renamed fields further down a leaf's path where ``comodels`` tells the models it steps into."""

    def flag(match: re.Match[str]) -> str:
        rename = renames.get((model, match["name"]))
        if rename is None or not rename.inverted:
            return match[0]
        report.count(RULE)
        holds = (match["value"] in ("True", "1")) == (match["op"] != "!=")
        q, oq = match["q"], match["oq"]
        return f"{match['open']}{q}{rename.new}{q}, {oq}={oq}, {not holds}{match['close']}"

    def leaf(match: re.Match[str]) -> str:
        segments = [match["name"], *match["rest"].split(".")[1:]]
        current, written = model, []
        for position, segment in enumerate(segments):
            rename = renames.get((current, segment)) if current else None
            if rename is not None and rename.inverted:
                report.find(
                    RULE,
                    path,
                    line,
                    f"{current}.{rename.old} is gone in {report.target}: {rename.new} says the opposite, and "
                    "this leaf is not a plain = or != of True or False.",
                    f"Write the leaf on {rename.new} with the opposite value.",
                )
                return match[0]
            written.append(rename.new if rename is not None else segment)
            last = position == len(segments) - 1
            current = comodels.of(current, segment) if comodels and current and not last else ""
        if written == segments:
            return match[0]
        report.count(RULE)
        return f"{match['open']}{match['q']}{'.'.join(written)}{match['q']}"

    return _LEAF.sub(leaf, _FLAG_LEAF.sub(flag, domain))


def _xml_edits(text: str, renames: _Renames, report: StepReport, path: str, comodels: Comodels) -> list[Edit]:
    try:
        doc = read_xml(text)
    except XmlParseError:
        return []  # the step's rules said so already
    models = {model for model, _old in renames}
    edits: list[Edit] = []
    for record in doc.root.iter("record"):
        fields = {str(f.get("name")): f for f in record if f.tag == "field"}
        kind = str(record.get("model") or "")
        if kind == "ir.rule":
            edits += _field_domain(
                doc, fields, "domain_force", _model_of_ref(fields, models), renames, report, path
            )
        elif kind in ("ir.actions.act_window", "ir.filters"):
            model_field = "res_model" if kind == "ir.actions.act_window" else "model_id"
            model = _text(fields.get(model_field))
            edits += _field_domain(doc, fields, "domain", model, renames, report, path)
        elif kind == "ir.ui.view" and "arch" in fields:
            model = _text(fields.get("model"))
            edits += _view_edits(doc, fields["arch"], model, renames, report, (path, comodels))
    return edits


def _field_domain(
    doc: XmlDocument,
    fields: dict[str, etree._Element],
    name: str,
    model: str,
    renames: _Renames,
    report: StepReport,
    path: str,
) -> list[Edit]:
    element = fields.get(name)
    if element is None or not model:
        return []
    if element.get("eval") is not None:
        value = str(element.get("eval"))
        new = rewrite_domain(value, model, renames, report, path, _line(element))
        return [set_value(doc, element, "eval", new, RULE)] if new != value else []
    span = element_text(doc, element)
    if span is None:
        return []
    value = doc.text[span[0] : span[1]]
    new = rewrite_domain(value, model, renames, report, path, _line(element))
    return [Edit(span[0], span[1], new, RULE)] if new != value else []


def _view_edits(
    doc: XmlDocument,
    arch: etree._Element,
    model: str,
    renames: _Renames,
    report: StepReport,
    where: tuple[str, Comodels],
) -> list[Edit]:
    """The view's own filters and fields: none inside a field's sub-view (another model's). A
    field's ``domain`` is on its comodel."""
    path, comodels = where
    edits: list[Edit] = []
    for element in arch.iter("filter", "field"):
        if element is arch or _in_sub_view(element, arch):
            continue
        on = model
        if element.tag == "field" and element.get("position") is None:
            on = comodels.of(model, str(element.get("name") or "")) if model else ""
        if element.tag in ("filter", "field") and element.get("domain") is not None and on:
            value = str(element.get("domain"))
            new = rewrite_domain(value, on, renames, report, path, _line(element), comodels)
            if new != value:
                edits.append(set_value(doc, element, "domain", new, RULE))
        rename = renames.get((model, str(element.get("name") or "")))
        if element.tag == "field" and element.get("position") is None and rename and not rename.inverted:
            report.count(RULE)
            edits.append(set_value(doc, element, "name", rename.new, RULE))
    return edits


def _in_sub_view(element: etree._Element, arch: etree._Element) -> bool:
    parent = element.getparent()
    while parent is not None and parent is not arch:
        if parent.tag == "field":
            return True
        parent = parent.getparent()
    return False


def _text(element: etree._Element | None) -> str:
    return (element.text or "").strip() if element is not None else ""


def _model_of_ref(fields: dict[str, etree._Element], models: set[str]) -> str:
    """The model an ``ir.rule``'s ``model_id ref="module.model_x_y"`` names, among ``models``."""
    element = fields.get("model_id")
    ref = str(element.get("ref") or "") if element is not None else ""
    name = ref.rsplit(".", 1)[-1]
    found = [m for m in models if name == "model_" + m.replace(".", "_")]
    return found[0] if len(found) == 1 else ""


def _python_edits(
    text: str, renames: _Renames, report: StepReport, path: str, comodels: Comodels
) -> list[Edit]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    starts = _line_starts(text)
    edits: list[Edit] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in _DOMAIN_METHODS:
            model = _env_model(node.func.value)
            domains = [node.args[0]] if node.args else []
        elif node.func.attr in RELATIONAL and isinstance(node.func.value, ast.Name):
            model = relational_comodel(node)  # fields.Many2one("account.account", domain=...)
            domains = []
        else:
            continue
        if not model:
            continue
        domains += [k.value for k in node.keywords if k.arg == "domain"]
        for domain in domains:
            literal = isinstance(domain, ast.List | ast.Tuple) or (
                isinstance(domain, ast.Constant) and isinstance(domain.value, str)
            )
            if not literal or domain.end_lineno is None:
                continue
            start = _offset(text, starts, domain.lineno, domain.col_offset)
            end = _offset(text, starts, domain.end_lineno, domain.end_col_offset or 0)
            value = text[start:end]
            new = rewrite_domain(value, model, renames, report, path, line_of(text, start), comodels)
            if new != value:
                edits.append(Edit(start, end, new, RULE))
    return edits


def _env_model(node: ast.expr) -> str:
    """``model`` of ``<...>.env["model"]`` (through sudo(), with_context(...) and their kin)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHAINED:
        node = node.func.value
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "env")
            or (isinstance(node.value, ast.Name) and node.value.id == "env")
        )
    ):
        return node.slice.value
    return ""


def _line_starts(text: str) -> list[int]:
    """Where each line starts, lines ended as Python's tokenizer ends them."""
    return [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


def _offset(text: str, starts: list[int], line: int, column: int) -> int:
    """The text offset of ast's (line, UTF-8 byte column)."""
    start = starts[line - 1]
    line_text = text[start : starts[line]] if line < len(starts) else text[start:]
    return start + len(line_text.encode("utf-8")[:column].decode("utf-8", errors="ignore"))


def _line(element: etree._Element) -> int:
    line = element.sourceline
    return line if isinstance(line, int) else 0
