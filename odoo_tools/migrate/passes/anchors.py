"""Inherited core views whose anchors are gone in the target series.

Each ``<xpath>``/``<field position>``/``<filter name position>``... spec of the module's views
that extend a core view is looked up, as Odoo does, in that view combined with the core views
extending it (odoo/tools/template_inheritance.py), so a spec that matches nothing there is
found before Odoo refuses the install ("Element ... cannot be located in parent view"). When the
source series' Odoo source is known too, the element the spec anchored on there tells what
became of it (``retarget``): renamed or moved, the spec is retargeted; gone, it is re-anchored
on a surviving neighbour, or removed when it only changed the gone element's attributes. Every
rewrite is a warning finding at the spec's line too: a person should look at where it lands.
Anything else stays a warning finding. A spec that matched nothing in the source series' core
view either is left alone: its anchor comes from elsewhere (another repository, the module
itself), not from this series' change. Without the source series' source, every spec matching
nothing is a finding, as the anchor may come from a module this does not read."""

from __future__ import annotations

import copy
import re

from lxml import etree

from odoo_tools.migrate.engine.edits import Edit, apply_edits
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.engine.xml_edit import record_model
from odoo_tools.migrate.engine.xml_tags import XmlDocument, XmlParseError, read_xml
from odoo_tools.migrate.passes.renamed_anchors import describe
from odoo_tools.migrate.passes.renamed_fields import renamed_field_names
from odoo_tools.migrate.passes.retarget import plan_for
from odoo_tools.migrate.passes.retarget_plan import Plan, spec_edits
from odoo_tools.migrate.passes.series_views import SeriesViews, manifest_depends, series_views
from odoo_tools.view_inheritance import (
    Refused,
    Unreadable,
    locate,
    spec_elements,
)

GONE = "gone-view-anchor"
_LIST = re.compile(r"(?<![^/])list(?=[\[/]|$)")  # an xpath step <list>
RETARGETED = "retargeted-view-anchor"
REMOVED = "removed-view-spec"
UNCHECKED = "unchecked-view-anchor"  # an xpath too big or too slow to evaluate


def check_core_anchors(
    files: ModuleFiles, source: CoreSource, report: StepReport, old_source: CoreSource | None = None
) -> None:
    """Find (and where it is safe, fix) the specs whose anchor is gone from the target's core."""
    new = series_views(source, manifest_depends(files.texts.get("__manifest__.py")))
    new.renamed_fields = renamed_field_names(report.target_series)
    old = (
        series_views(old_source, manifest_depends(files.original.get("__manifest__.py")))
        if old_source
        else None
    )
    for rel in sorted(files.texts):
        if rel.endswith(".xml"):
            files.texts[rel] = _check_file(files, rel, new, old, report)


def _check_file(
    files: ModuleFiles, rel: str, new: SeriesViews, old: SeriesViews | None, report: StepReport
) -> str:
    text = files.texts[rel]
    try:
        doc = read_xml(text)
    except XmlParseError:
        return text
    edits: list[Edit] = []
    for record, ref, arch, primary in _extensions(doc):
        if "." not in ref or ref.split(".")[0] == files.name:
            continue
        tree = new.tree(ref, primary)
        if tree is None:
            continue  # not a core view of the target series: not ours to judge
        old_tree = old.tree(ref, primary) if old is not None else None
        edits += _check_record(files, rel, doc, (record, arch), ref, (tree, old_tree), (new, old), report)
    return apply_edits(text, edits)[0] if edits else text


def _extensions(doc: XmlDocument) -> list[tuple[etree._Element, str, etree._Element, bool]]:
    """The views of the file that extend another: (the record or ``<template>``, the view it
    extends, the element holding its specs, whether it is a view of its own: mode primary)."""
    found = []
    for record in doc.root.iter("record"):
        inherit = record.find("field[@name='inherit_id']")
        ref = str(inherit.get("ref") or "") if inherit is not None else ""
        arch = record.find("field[@name='arch']")
        if ref and arch is not None and record_model(arch) == "ir.ui.view":
            mode = record.find("field[@name='mode']")
            found.append((record, ref, arch, mode is not None and (mode.text or "").strip() == "primary"))
    for template in doc.root.iter("template"):
        ref = str(template.get("inherit_id") or "")
        if ref:  # its children are the specs, as in the <data> Odoo makes of it
            found.append((template, ref, template, template.get("primary") == "True"))
    return found


def _check_record(
    files: ModuleFiles,
    rel: str,
    doc: XmlDocument,
    view: tuple[etree._Element, etree._Element],
    ref: str,
    trees: tuple[etree._Element, etree._Element | None],
    series: tuple[SeriesViews, SeriesViews | None],
    report: StepReport,
) -> list[Edit]:
    """``view``: the record (or template) and the element holding its specs."""
    (tree, old_tree), (new, old), (record, arch) = trees, series, view
    specs = spec_elements(arch)
    plans: list[tuple[etree._Element, Plan | None]] = []
    for spec in specs:
        try:
            node = locate(tree, spec)
            old_node = _locate_old(old_tree, spec) if old_tree is not None else None
        except Refused as exc:
            report.find(
                UNCHECKED, files.site_path(rel), _line(spec),
                f"{_what(spec)[:200]} was not looked up in the {report.target_series} view {ref}: "
                f"{exc.__cause__}.",
                "Anchor on a plain path (//field[@name='x'], //div[hasclass('y')]) so it can be checked.",
            )  # fmt: skip
            continue
        except Unreadable:
            continue
        if node is None and old_tree is not None and old_node is None:
            continue  # not a core anchor of the source series either: this series' change did not take it
        plan = (
            plan_for(spec, old_node, tree, old_tree, new.surely_there, new.renamed_fields)
            if node is None
            else None
        )
        if old_node is not None and old is not None and old_tree is not None:
            old.apply(ref, old_tree, spec, old_node)  # after planning: the plan reads the element as it was
        if node is not None:
            new.apply(ref, tree, spec, node)
            continue
        plans.append((spec, plan))
        if plan is not None and plan.target is not None:
            moved = copy.deepcopy(spec)
            moved.set("position", plan.position)
            if plan.wrap:  # the content goes into a new element (pages into a notebook of their own)
                wrapper = etree.Element(plan.wrap)
                wrapper.extend(list(moved))
                moved.append(wrapper)
            new.apply(ref, tree, moved, plan.target)
    removals = [spec for spec, plan in plans if plan is not None and plan.target is None]
    emptied = bool(specs) and len(removals) == len(specs)
    whole_record = emptied and not _referenced(files, record)
    # It anchored on core in the source series and nothing installed with it on the target adds it:
    # the install fails on it (with a dependency outside core, that module might still add it).
    certain = old_tree is not None and new.modules is not None
    edits: list[Edit] = []
    for spec, plan in plans:
        if plan is not None and plan.target is None and emptied and not whole_record:
            plan = None  # an extension left with an empty arch is refused by Odoo: a person decides
        edits += _report(files, rel, doc, spec, plan, ref, whole_record, report, certain)
    if whole_record:
        edits.append(_removal(doc, record))
    return edits


def _locate_old(old_tree: etree._Element, spec: etree._Element) -> etree._Element | None:
    """The spec's anchor in the source series' view; a spec already moved to 18.0's ``<list>``
    is looked up as the ``<tree>`` it was."""
    node = locate(old_tree, spec)
    if node is not None or "list" not in str(spec.get("expr") or spec.tag):
        return node
    before = copy.copy(spec)
    if spec.tag == "xpath":
        before.set("expr", _LIST.sub("tree", str(spec.get("expr"))))
    else:
        before.tag = "tree"
    return locate(old_tree, before)


def _report(
    files: ModuleFiles,
    rel: str,
    doc: XmlDocument,
    spec: etree._Element,
    plan: Plan | None,
    ref: str,
    whole_record: bool,
    report: StepReport,
    certain: bool,
) -> list[Edit]:
    what = _what(spec)
    path, line, series = files.site_path(rel), _line(spec), report.target_series
    if plan is None:
        report.find(
            GONE, path, line,
            f"{what} matches nothing in the {series} view {ref} (nor in the core views extending "
            f"it): the install will fail on it{'' if certain else ' unless a module outside core adds it'}.",
            f"Read {ref} in the {series} source and anchor on what replaced it.",
            "error" if certain else "warning",
        )  # fmt: skip
        return []
    if plan.target is None:
        report.count(REMOVED)
        also = " with its record (nothing else was left in it)" if whole_record else ""
        did = "what the spec added beside it is not shown" if plan.lost else "the spec only changed it"
        report.find(
            REMOVED, path, line,
            f"{what} matches nothing in the {series} view {ref}: {plan.why}; {did}, so it was removed{also}.",
            f"Check in the {series} source of {ref} whether what it did is still needed elsewhere.",
        )  # fmt: skip
        return [] if whole_record else [_removal(doc, spec)]
    report.count(RETARGETED)
    report.find(
        RETARGETED, path, line,
        f"{what} matches nothing in the {series} view {ref}: {plan.why}; retargeted to "
        f"{describe(plan.target)} (position {plan.position}).",
        f"Check in the {series} view {ref} that the change lands where it should.",
    )  # fmt: skip
    return spec_edits(doc, spec, plan)


def _what(spec: etree._Element) -> str:
    if spec.tag == "xpath":
        return str(spec.get("expr"))
    attributes = " ".join(f'{k!s}="{v!s}"' for k, v in spec.attrib.items() if k != "position")
    return f"<{spec.tag} {attributes}>"


def _line(element: etree._Element) -> int | None:
    line = element.sourceline
    return line if isinstance(line, int) else None


def _referenced(files: ModuleFiles, record: etree._Element) -> bool:
    """Whether another file or record names this record's id (then it cannot go)."""
    xml_id = str(record.get("id") or "")
    if not xml_id:
        return False
    short = xml_id.split(".")[-1]
    needles = (f"{files.name}.{short}", f'"{short}"', f"'{short}'")
    return sum(text.count(n) for text in files.texts.values() for n in needles) > 1


def _removal(doc: XmlDocument, element: etree._Element) -> Edit:
    """Remove the element with the indentation before it and the end of its line."""
    tag = doc.tag(element)
    start, end = tag.start, tag.close_end
    line_start = doc.text.rfind("\n", 0, start) + 1
    if not doc.text[line_start:start].strip():
        start = line_start
        newline = doc.text.find("\n", end)
        if newline >= 0 and not doc.text[end:newline].strip():
            end = newline + 1
    return Edit(start, end, "", REMOVED)
