"""A ``res.groups`` record's ``category_id`` when the target series puts groups under privileges
(19.0: ``res.groups`` has ``privilege_id``, a ``res.groups.privilege`` has the category). 19.0
ignores the old field on a group (the group loses its place in the user form), and a category
18.0 made from a manifest that 19.0 no longer makes (``base.module_category_inventory_inventory``)
fails the install as an unknown external id. The line becomes:

- ``privilege_id`` to the core privilege that took the category's core groups over (``stock``'s
  Inventory for Inventory/Inventory), when the module has that privilege's module installed;
- nothing, when the core groups of the category mostly lost any privilege (core hid them:
  ``base.module_category_hidden``);
- otherwise ``privilege_id`` to a privilege the rewrite adds once per category in that file,
  before the first group using it, named after the category and in it when the category still
  exists on the target (the module's own do), else in the core heir's category.

Every rewrite is also a finding at the line, so a person sees where the group went."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit, apply_edits, indentation_at
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.xml_edit import attribute_text, replace_element, set_value
from odoo_tools.migrate.engine.xml_tags import XmlDocument, XmlParseError, read_xml
from odoo_tools.migrate.passes.core_privileges import (
    HIDDEN,
    PrivilegeFacts,
    full_id,
    manifest_category_ids,
    privilege_facts,
)
from odoo_tools.migrate.passes.core_views import core_views

RULE = "moved-group-category"
_PREFIX = "module_category_"


class _Module:
    """What the rewrite knows of the module: its categories (records and manifest), the core
    modules installed with it, every xml id it declares (new ids must not collide)."""

    def __init__(self, files: ModuleFiles, facts: PrivilegeFacts, new_source: Path) -> None:
        self.name, self.facts = files.name, facts
        manifest = _manifest(files.texts.get("__manifest__.py"))
        category = manifest.get("category")
        self.categories = manifest_category_ids(category) if isinstance(category, str) else {}
        self.ids: set[str] = set()
        self.records: dict[str, str] = {}  # the categories its data declares: its own
        for rel, text in files.texts.items():
            if rel.endswith(".xml"):
                self.ids.update(re.findall(r"""\bid\s*=\s*["']([\w.]+)["']""", text))
                self.records.update(_category_records(text, files.name))
        self.categories.update(self.records)
        depends = manifest.get("depends", [])
        views = core_views(new_source)
        core = [str(d) for d in depends if str(d) in views.depends] if isinstance(depends, list) else []
        self.installed = views.installable_with(core) or frozenset()
        self.core_modules = frozenset(views.depends)

    def exists(self, category: str) -> bool:
        """Whether the category is there on the target series."""
        module = category.split(".")[0]
        return (
            category in self.categories
            or category in self.facts.new_categories
            or (module != "base" and module not in self.core_modules)  # another module's own
        )

    def new_id(self, category: str) -> str:
        stem = "res_groups_privilege_" + category.split(".")[-1].removeprefix(_PREFIX)
        candidate, n = stem, 1
        while candidate in self.ids or f"{self.name}.{candidate}" in self.ids:
            n += 1
            candidate = f"{stem}_{n}"
        self.ids.add(candidate)
        return candidate


def move_group_categories(files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path) -> None:
    facts = privilege_facts(old_source, new_source)
    if not facts.privileges:
        return  # the target series has no privileges
    module: _Module | None = None
    for rel in sorted(files.texts):
        text = files.texts[rel]
        if not rel.endswith(".xml") or "res.groups" not in text or "category_id" not in text:
            continue
        try:
            doc = read_xml(text)
        except XmlParseError:
            continue
        module = module or _Module(files, facts, new_source)
        edits = _file_edits(doc, module, files.site_path(rel), report)
        if edits:
            files.texts[rel] = apply_edits(text, edits)[0]


def _file_edits(doc: XmlDocument, module: _Module, path: str, report: StepReport) -> list[Edit]:
    edits: list[Edit] = []
    added: dict[str, str] = {}  # category -> the privilege added for it in this file
    for record in doc.root.iter("record"):
        if record.get("model") != "res.groups" or record.find("field[@name='privilege_id']") is not None:
            continue
        line = record.find("field[@name='category_id']")
        if line is None:
            continue
        ref = line.get("ref")
        where = line.sourceline if isinstance(line.sourceline, int) else None
        if not ref:
            report.find(
                RULE, path, where,
                f"a group's category_id is gone in {report.target_series} (groups have a privilege_id, "
                "whose res.groups.privilege has the category): this one is not a plain ref.",
                "Add a res.groups.privilege record in that category and set the group's privilege_id.",
            )  # fmt: skip
            continue
        category = full_id(ref, module.name)
        heir = None if category in module.records else module.facts.outcomes.get(category)
        tag = doc.tag(line)
        report.count(RULE)
        if heir == HIDDEN:
            edits.append(replace_element(doc.text, tag.start, tag.close_end, "", RULE))
            _found(
                report,
                path,
                where,
                f"the core groups of {category} have no privilege there (hidden): the line went",
            )
            continue
        if heir and module.facts.privileges[heir].module in module.installed:
            privilege = heir
            _found(
                report,
                path,
                where,
                f"{category}'s core groups are under the privilege {heir}: the group joins them",
            )
        else:
            if category not in added:
                added[category] = module.new_id(category)
                edits.append(_privilege_record(doc, record, added[category], category, ref, heir, module))
            privilege = added[category]
            _found(report, path, where, f"the group is under a privilege {privilege} added for {category}")
        edits.append(set_value(doc, line, "name", "privilege_id", RULE))
        edits.append(set_value(doc, line, "ref", privilege, RULE))
    return edits


def _privilege_record(
    doc: XmlDocument,
    group: etree._Element,
    xml_id: str,
    category: str,
    ref: str,
    heir: str | None,
    module: _Module,
) -> Edit:
    """A res.groups.privilege record on the lines before ``group`` (and the comment lines right
    above it, which speak of the group), indented like it."""
    start = doc.tag(group).start
    indent = indentation_at(doc.text, start)
    start = _above_comments(doc.text, start)
    line = group.find("field[@name='category_id']")
    inner = indentation_at(doc.text, doc.tag(line).start) if line is not None else indent + "    "
    if inner == indent:
        inner = indent + "    "
    name = module.categories.get(category) or module.facts.old_categories.get(category) or _title(category)
    kept = ref if module.exists(category) else module.facts.privileges[heir].category if heir else ""
    lines = [
        f"<record {attribute_text('id', xml_id)} {attribute_text('model', 'res.groups.privilege')}>",
        f"{inner}<field {attribute_text('name', 'name')}>{_escape(name)}</field>",
    ]
    if kept:
        lines.append(f"{inner}<field {attribute_text('name', 'category_id')} {attribute_text('ref', kept)}/>")
    lines.append(f"{indent}</record>\n\n{indent}")
    return Edit(start, start, "\n".join(lines), RULE)


def _above_comments(text: str, start: int) -> int:
    """``start`` moved up over the whole-line comments just above it."""
    while True:
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip():
            return start
        previous = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
        line = text[previous : max(line_start - 1, 0)].strip()
        if line_start == 0 or not (line.startswith("<!--") and line.endswith("-->")) or "-->" in line[:-3]:
            return start
        start = previous + len(indentation_at(text, previous))


def _found(report: StepReport, path: str, line: int | None, what: str) -> None:
    report.find(
        RULE, path, line,
        f"a group's category_id is gone in {report.target_series} (groups have a privilege_id): {what}.",
        "Check the group's place in the user form's access rights.",
        severity="info",
    )  # fmt: skip


def _manifest(text: str | None) -> dict[str, object]:
    try:
        data = ast.literal_eval(text) if text else {}
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _category_records(text: str, module: str) -> dict[str, str]:
    """The module's own ir.module.category records: xml id -> name."""
    if "ir.module.category" not in text:
        return {}
    try:
        root = read_xml(text).root
    except XmlParseError:
        return {}
    found: dict[str, str] = {}
    for record in root.iter("record"):
        if record.get("model") == "ir.module.category" and record.get("id"):
            name = record.find("field[@name='name']")
            found[full_id(str(record.get("id")), module)] = (
                (name.text or "").strip() if name is not None else ""
            )
    return found


def _title(category: str) -> str:
    return category.split(".")[-1].removeprefix(_PREFIX).replace("_", " ").title()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
