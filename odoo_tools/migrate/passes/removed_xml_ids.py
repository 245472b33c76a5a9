"""References of the module to core external IDs the step removed, told by the two series'
sources: ``self.env.ref("product.list0")`` (OCA sale_pricelist_from_commitment_date's tests on
17.0), ``ref="base.field_res_company__favicon"`` (OCA server_action_mass_edit, a field 17.0 took
from res.company), ``eval="ref('...')"``, ``%(...)d``, a menuitem's parent/action/groups, a CSV
``:id`` column. Odoo raises "External ID not found" where it reads it: an error at the line,
nothing rewritten (what replaced the record is a person's call). Only ids the old series surely
had (its core addons' data and demo files, the ids it made for their models and fields) and the
new one surely lacks; the module's own ids, other modules' and unsure ones are not judged. A view's
``groups="..."`` is left out: Odoo only logs a warning for a group that does not exist."""

from __future__ import annotations

import ast
import csv
import io
import re
from collections.abc import Iterator

from lxml import etree

from odoo_tools.index import attribute_line, parse_csv, parse_xml
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.core_xml_ids import core_ids

RULE = "removed-core-xml-id"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)
_EVAL_REF = re.compile(r"""\bref\(\s*(['"])([\w.]+)\1\s*\)""")
_PERCENT_REF = re.compile(r"%\(([\w.]+)\)[ds]")
_XML_ROOTS = ("odoo", "openerp", "data")
_MENU_ATTRIBUTES = ("parent", "action", "groups")
_CATCHING_VALUE_ERROR = frozenset({"ValueError", "Exception", "BaseException"})
_KINDS = {
    "data": "a record of its data files",
    "demo": "a demo record, which exists only in databases with demo data",
    "model": "the model's ir.model record",
    "field": "the field's ir.model.fields record",
}


def find_removed_xml_ids(
    files: ModuleFiles, report: StepReport, old_source: CoreSource, new_source: CoreSource
) -> None:
    old, new = core_ids(old_source), core_ids(new_source)
    series = report.target_series
    own = _own_ids(files)
    for rel, line, xml_id in sorted(set(_references(files))):
        addon = xml_id.split(".")[0]
        if addon == files.name or xml_id in own or addon not in old.addons or addon not in new.addons:
            continue
        kind = old.had(xml_id)
        if kind is None or new.may_have(xml_id):
            continue
        path = files.site_path(rel)
        if any(f.path == path and f.line == line and xml_id in f.message for f in report.findings):
            continue
        report.find(
            RULE, path, line,
            f"{xml_id} is gone from Odoo {series} ({addon} had it in {report.source} as {_KINDS[kind]}): "
            "Odoo raises \"External ID not found\" here.",
            f"Read the {series} source of {addon} for what replaced it and refer to that, or drop this use.",
            severity="error",
        )  # fmt: skip


def _references(files: ModuleFiles) -> Iterator[tuple[str, int, str]]:
    """(file, line, qualified id) of each external ID the module's loaded files refer to."""
    loaded = _manifest_files(files.texts.get("__manifest__.py"))
    for rel, text in files.texts.items():
        if rel.startswith(("migrations/", "upgrades/")):
            continue
        if rel.endswith(".py"):
            yield from ((rel, line, xml_id) for line, xml_id in _python_refs(text))
        elif rel in loaded and rel.endswith(".xml"):
            yield from ((rel, line, xml_id) for line, xml_id in _xml_refs(text))
        elif rel in loaded and rel.endswith(".csv"):
            yield from ((rel, line, xml_id) for line, xml_id in _csv_refs(text))


def _own_ids(files: ModuleFiles) -> set[str]:
    """The ids the module's data files create, also under a core addon's name
    (``<record id="product.list0">``): the module gives them itself."""
    own: set[str] = set()
    for rel, text in files.texts.items():
        if rel.endswith((".xml", ".csv")) and not rel.startswith("static/"):
            parse = parse_xml if rel.endswith(".xml") else parse_csv
            own.update(record.xml_id for record in parse(text.encode(), rel, files.name).records)
    return own


def _manifest_files(text: str | None) -> set[str]:
    try:
        manifest = ast.literal_eval(text) if text else {}
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    if not isinstance(manifest, dict):
        return set()
    return {
        str(rel)
        for key in ("data", "demo")
        if isinstance(manifest.get(key), (list, tuple))
        for rel in manifest[key]
    }


def _python_refs(text: str) -> Iterator[tuple[int, str]]:
    """``<anything>.ref("a.b")`` / ``.browse_ref("a.b")`` that raise when the id is missing
    (not ``raise_if_not_found=False``)."""
    if "ref(" not in text:
        return
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    guarded = _guarded(tree)
    for node in ast.walk(tree):
        if (
            id(node) not in guarded
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("ref", "browse_ref")
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and "." in node.args[0].value
            and all(k.arg != "raise_if_not_found" for k in node.keywords)
        ):
            yield node.args[0].lineno, node.args[0].value.strip()


def _guarded(tree: ast.Module) -> set[int]:
    """The calls (by id) in a ``try`` body one of whose handlers catches the ValueError of a
    missing id: the module's own fallback runs then."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, ast.TryStar)) and any(_catches_value_error(h) for h in node.handlers):
            guarded.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return guarded


def _catches_value_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in _CATCHING_VALUE_ERROR for t in types)


def _xml_refs(text: str) -> Iterator[tuple[int, str]]:
    try:
        root = etree.fromstring(text.encode(), _PARSER)
    except etree.XMLSyntaxError:
        return
    if root.tag not in _XML_ROOTS:
        return
    lines = text.splitlines()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        in_arch = any(a.tag == "field" and a.get("name") == "arch" for a in element.iterancestors())
        for name, value in ((str(k), str(v)) for k, v in element.attrib.items()):
            found = [m.group(1) for m in _PERCENT_REF.finditer(value)]
            if not in_arch:
                if name == "ref" and element.tag in ("field", "value"):
                    found.append(value)
                elif name == "eval":
                    found += [m.group(2) for m in _EVAL_REF.finditer(value)]
                elif element.tag == "template" and name == "inherit_id":
                    found.append(value)
                elif element.tag == "menuitem" and name in _MENU_ATTRIBUTES:
                    found += [part.strip().lstrip("-") for part in value.split(",")]
            line = attribute_line(lines, _line(element), name) if found else 0
            yield from ((line, xml_id.strip()) for xml_id in found if "." in xml_id)


def _line(element: etree._Element) -> int:
    line = getattr(element, "sourceline", None)  # lxml-stubs type it loosely: an int here
    return line if isinstance(line, int) else 0


def _csv_refs(text: str) -> Iterator[tuple[int, str]]:
    """The ``<field>:id`` / ``<field>/id`` columns (comma-separated ids for a many2many)."""
    try:
        reader = csv.reader(io.StringIO(text))
        header = [h.strip() for h in next(reader, [])]
        columns = [i for i, h in enumerate(header) if h != "id" and h.endswith((":id", "/id"))]
        for row in reader:
            for i in columns:
                cell = row[i] if i < len(row) else ""
                yield from ((reader.line_num, part.strip()) for part in cell.split(",") if "." in part)
    except csv.Error:
        return
