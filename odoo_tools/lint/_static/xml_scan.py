"""What the static checks need from XML data files beyond the index: every xml id a file
refers to (with its line) and the uses of what some series removed or renamed (``api_uses``).

Parsed with lxml, entities and network off, as the index does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from odoo_tools.index import attribute_line, qualify
from odoo_tools.lint._static.api_uses import Use, element_uses
from odoo_tools.lint._static.xpath_context import lands_in_sub_view
from odoo_tools.storage import read_capped

if TYPE_CHECKING:
    from odoo_tools.lint._static.context import StaticContext

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
# ref() of the eval context (or env.ref), not a method named ref of a call's result
# (``obj().with_company(c).ref('pcg_6352')``: the chart template's own, l10n_ro_nondeductible_vat
# 19.0's demo, which names a chart account, not an external ID of the module)
_EVAL_REF = re.compile(r"""(?<!\)\.)\bref\(\s*['"]([\w.]+)['"]\s*\)""")
# odoo.tools.convert's _process: %(id)d or %(id)s not after another %.
_ID_IN_ARCH = re.compile(r"(?<!%)%\(([\w.]+)\)[ds]")


@dataclass(frozen=True)
class Ref:
    xml_id: str  # module-qualified
    line: int
    via: str  # ref, eval, parent, action, groups, inherit_id, button
    in_arch: bool = False  # a ``groups`` attribute inside a view's arch (Odoo only warns)


@dataclass
class XmlScan:
    refs: list[Ref] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    error: str = ""


def scan_xml(path: Path, module: str) -> XmlScan:
    scan = XmlScan()
    try:
        data = read_capped(path)
        if data is None:
            return scan  # over the cap: the index says so (file-too-large)
        root = etree.fromstring(data, _PARSER)
    except (OSError, etree.XMLSyntaxError, ValueError) as exc:
        scan.error = str(exc)
        return scan
    lines = data.decode("utf-8", errors="replace").splitlines()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        line = _line(element)
        if element.tag == "field":
            _field(element, module, line, scan, lines)
        elif element.tag == "menuitem":
            for attr in ("parent", "action"):
                if element.get(attr):
                    at = attribute_line(lines, line, attr)
                    scan.refs.append(Ref(qualify(element.get(attr, ""), module), at, attr))
        elif element.tag == "template" and element.get("inherit_id"):
            at = attribute_line(lines, line, "inherit_id")
            scan.refs.append(Ref(qualify(element.get("inherit_id", ""), module), at, "inherit_id"))
        if element.get("groups") and not _in_qweb(element):
            _groups(element, module, attribute_line(lines, line, "groups"), scan)
        if element.tag == "function" or element.tag == "value":
            _evals(element.get("eval", ""), module, attribute_line(lines, line, "eval"), scan, lines)
        in_arch = _in_view_arch(element)
        if in_arch or _in_qweb(element):
            _arch_element(element, module, line, scan, lines)
        inline = in_arch and _in_inline_view(element)
        added_at = _added_at(element, line) if in_arch else 0
        scan.uses += element_uses(element, line, lines, in_arch, inline, added_at)
    return scan


def access_scans(ctx: StaticContext) -> list[tuple[int, str, XmlScan]]:
    """The external IDs the rows of the module's access CSV files name (``model_id:id``,
    ``group_id:id``), as scans beside the XML files' (XML access records are scanned as XML)."""
    scans = []
    for position, data in ctx.loaded_file_data():
        if data.kind != "csv" or not data.access:
            continue
        scan = XmlScan()
        for row in data.access:
            if row.model_ref:
                scan.refs.append(Ref(qualify(row.model_ref, ctx.addon.name), row.line, "model_id:id"))
            if row.group:
                scan.refs.append(Ref(qualify(row.group, ctx.addon.name), row.line, "group_id:id"))
        scans.append((position, data.path, scan))
    return scans


def _groups(element: etree._Element, module: str, line: int, scan: XmlScan) -> None:
    in_arch = _in_view_arch(element)
    for group in element.get("groups", "").split(","):
        if group.strip():
            scan.refs.append(Ref(qualify(group.strip().lstrip("!-"), module), line, "groups", in_arch))


def _line(element: etree._Element) -> int:
    line = element.sourceline
    return line if isinstance(line, int) else 0


def _field(element: etree._Element, module: str, line: int, scan: XmlScan, lines: list[str]) -> None:
    if element.get("ref"):
        at = attribute_line(lines, line, "ref")
        scan.refs.append(Ref(qualify(element.get("ref", ""), module), at, "ref"))
    if element.get("eval"):
        _evals(element.get("eval", ""), module, attribute_line(lines, line, "eval"), scan, lines)


def _evals(text: str, module: str, line: int, scan: XmlScan, lines: list[str]) -> None:
    """``ref('x')`` in an eval, at the line that holds it (an eval may span several lines; the
    parsed value has its newlines turned to spaces, so the source lines are searched)."""
    for match in _EVAL_REF.finditer(text or ""):
        at = next(
            (n for n in range(line, min(len(lines), line + 200) + 1) if match.group(0) in lines[n - 1]),
            line,
        )
        scan.refs.append(Ref(qualify(match.group(1), module), at, "eval"))


def _arch_element(element: etree._Element, module: str, line: int, scan: XmlScan, lines: list[str]) -> None:
    """``%(xml_id)d`` anywhere in the arch's attributes or text: Odoo replaces each with the
    record's id while loading the view (odoo.tools.convert), and fails on an unknown id."""
    for attr, value in element.attrib.items():
        if not isinstance(attr, str) or not isinstance(value, str):
            continue
        for match in _ID_IN_ARCH.finditer(value):
            via = "button" if element.tag == "button" and attr == "name" else f"%(...)d in {attr}="
            at = attribute_line(lines, line, attr)
            scan.refs.append(Ref(qualify(match.group(1), module), at, via))
    for match in _ID_IN_ARCH.finditer(element.text or ""):
        scan.refs.append(Ref(qualify(match.group(1), module), line, "%(...)d"))


def _in_inline_view(element: etree._Element) -> bool:
    """Under a ``<field>`` of the arch, or put there by an ``<xpath>`` going below a field: an
    inline sub-view of a relational field (an attrs there installs on Odoo 18: checked). What an
    inheriting view adds is placed on the combined arch where it can be (``view_landing``); this is
    the reading of its own text, for where it cannot."""
    for ancestor in element.iterancestors():
        if ancestor.tag == "xpath" and lands_in_sub_view(str(ancestor.get("expr") or "")):
            return True
        if ancestor.tag == "field" and ancestor.get("position") not in (None, "inside"):
            continue  # <field name="x" position="after">: an anchor, its content goes beside x
        if ancestor.tag == "field":
            return ancestor.get("name") != "arch"
    return False


def _added_at(element: etree._Element, line: int) -> int:
    """``line`` when ``element`` is what a spec of an inheriting view adds (below a spec of a
    record that has an ``inherit_id``), else 0."""
    below: list[etree._Element] = []
    for ancestor in element.iterancestors():
        if ancestor.tag == "field" and ancestor.get("name") == "arch":
            record = ancestor.getparent()
            fields = record.iterchildren("field") if record is not None else iter(())
            inherits = any(f.get("name") == "inherit_id" for f in fields)
            specs = [a for a in below if a.tag != "data"]
            return line if inherits and specs else 0
        below.append(ancestor)
    return 0


def _in_view_arch(element: etree._Element) -> bool:
    """Inside ``<field name="arch">`` of an ``ir.ui.view`` record (not the field itself)."""
    for ancestor in element.iterancestors():
        if ancestor.tag == "field" and ancestor.get("name") == "arch":
            record = ancestor.getparent()
            return record is not None and record.get("model") == "ir.ui.view"
    return False


def _in_qweb(element: etree._Element) -> bool:
    # QWeb templates' groups="" are checked at render time against any installed module.
    return any(a.tag == "template" for a in element.iterancestors())
