"""Inherited core views whose anchors are gone in the target series: the module's ``<xpath>`` and
``<field position>`` specs are looked up in the target source's view and in every core view
that inherits it, so a spec that matches nothing there is found before Odoo refuses the install
("Element ... cannot be located in parent view").

A warning, not an error: the anchor may come from a view of a module outside the target source's
core (another repository), which this does not read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lxml import etree

from odoo_tools.migrate._module_files import ModuleFiles
from odoo_tools.migrate._report import StepReport

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)


def _hasclass(context: object, *classes: str) -> bool:
    """Odoo's own XPath function (odoo/tools/template_inheritance.py)."""
    node = context.context_node  # type: ignore[attr-defined]
    present = set((node.get("class") or "").split())
    return all(c in present for c in classes)


_EXTENSIONS = {(None, "hasclass"): _hasclass}


@dataclass
class CoreViews:
    """The view archs of a core source: by xml id, and the archs inheriting each."""

    archs: dict[str, etree._Element] = field(default_factory=dict)
    inheriting: dict[str, list[etree._Element]] = field(default_factory=dict)


@cache
def core_views(source: Path) -> CoreViews:
    views = CoreViews()
    for addons in (source / "odoo" / "addons", source / "addons"):
        if not addons.is_dir():
            continue
        for module in sorted(p for p in addons.iterdir() if (p / "__manifest__.py").is_file()):
            for path in module.rglob("*.xml"):
                if "static" in path.relative_to(module).parts:
                    continue
                _read(views, module.name, path)
    return views


def _read(views: CoreViews, module: str, path: Path) -> None:
    try:
        root = etree.parse(str(path), _PARSER).getroot()
    except (etree.XMLSyntaxError, OSError):
        return
    for record in root.iter("record", "template"):
        is_view = record.tag == "template" or record.get("model") == "ir.ui.view"
        xml_id = record.get("id")
        if not is_view or not xml_id:
            continue
        full = xml_id if "." in xml_id else f"{module}.{xml_id}"
        arch = record if record.tag == "template" else record.find("field[@name='arch']")
        if arch is None:
            continue
        parent = record.get("inherit_id") if record.tag == "template" else None
        inherit = record.find("field[@name='inherit_id']")
        parent = parent or (inherit.get("ref") if inherit is not None else None)
        if parent:
            parent = parent if "." in parent else f"{module}.{parent}"
            views.inheriting.setdefault(parent, []).append(arch)
        else:
            views.archs[full] = arch


_NAMED = re.compile(r"""@name\s*=\s*['"]([\w.]+)['"]\s*\]\s*$""")


@cache
def _standalone(view: etree._Element) -> etree._Element | None:
    """The view's root element in a tree of its own, as Odoo evaluates xpaths against it."""
    roots = [child for child in view if isinstance(child.tag, str)]
    return etree.fromstring(etree.tostring(roots[0])) if len(roots) == 1 else None


def _added_names(views: list[etree._Element]) -> set[str]:
    """The ``name`` of every node the inheriting views add (anchors for later inheritances)."""
    return {
        str(node.get("name")) for view in views for spec in view for node in spec.iter() if node.get("name")
    }


def _anchor_found(
    spec: etree._Element, base: etree._Element, inheriting: list[etree._Element]
) -> bool | None:
    """Whether the spec's anchor is in the base view or among what core views add to it; None when
    this cannot be told (an anchor without a name that inheriting views may add)."""
    root = _standalone(base)
    if root is None:
        return None
    if spec.tag == "xpath":
        expr = spec.get("expr") or ""
        try:
            if etree.XPath(expr, extensions=_EXTENSIONS)(root):
                return True
        except (etree.XPathSyntaxError, etree.XPathEvalError):
            return None
        named = _NAMED.search(expr)
        if named is None:
            return None if inheriting else False
        return named.group(1) in _added_names(inheriting)
    if spec.tag == "field" and spec.get("name"):
        name = str(spec.get("name"))
        return bool(root.xpath("descendant-or-self::field[@name=$n]", n=name)) or name in _added_names(
            inheriting
        )
    return None


def check_core_anchors(files: ModuleFiles, source: Path, report: StepReport) -> None:
    views = core_views(source)
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".xml"):
            continue
        try:
            root = etree.fromstring(text.encode("utf-8"), _PARSER)
        except etree.XMLSyntaxError:
            continue
        for record in root.iter("record"):
            inherit = record.find("field[@name='inherit_id']")
            ref = inherit.get("ref") if inherit is not None else None
            arch = record.find("field[@name='arch']")
            if not ref or "." not in ref or ref.split(".")[0] == files.name or arch is None:
                continue
            if ref not in views.archs:
                continue  # not a core view of the target series (or a template): not ours to judge
            specs = list(arch) if len(arch) and arch[0].tag != "data" else list(arch[0]) if len(arch) else []
            for spec in specs:
                if not isinstance(spec.tag, str):
                    continue
                if _anchor_found(spec, views.archs[ref], views.inheriting.get(ref, [])) is False:
                    what = spec.get("expr") if spec.tag == "xpath" else f'<field name="{spec.get("name")}">'
                    report.find(
                        "gone-view-anchor", files.site_path(rel), spec.sourceline,
                        f"{what} matches nothing in the {report.target_series} view {ref} (nor in the core "
                        "views inheriting it): the install will fail on it.",
                        f"Read {ref} in the {report.target_series} source and anchor on what replaced it.",
                    )  # fmt: skip
