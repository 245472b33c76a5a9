"""Why a spec that finds nothing in the arch we rebuilt may still find its node in Odoo's: what a
pack skeleton drops (text, most attribute values, a loaded record's id), which a loosened spec
can be tried without, and the views that could not be applied but might add the node."""

from __future__ import annotations

import copy
import re

from lxml import etree

from odoo_tools.lint._static.view_sources import KEPT_VALUES
from odoo_tools.lint._static.xpath_steps import last_step
from odoo_tools.view_inheritance import Unreadable, locate

UNDECIDABLE = "it anchors on what the series pack does not keep (text, or an attribute's value)"
_ATTRIBUTE = re.compile(r"@([\w:.-]+)")
_TEXTUAL = re.compile(r"text\(\)|normalize-space|string\(|\.\s*[!=]|contains\(\s*\.")
_POSITIONAL = re.compile(r"\[\s*\d|last\(\)|position\(\)|not\(|count\(")
LOADED_ID = re.compile(r"%\([\w.]+\)[ds]")  # odoo.tools.convert puts the record's id there
_PREDICATE = re.compile(r"\[([^\[\]]*)\]")
_TEST = re.compile(r"""^\s*@([\w:.-]+)\s*=\s*(?:'[^']*'|"[^"]*")\s*$""")


def undecidable(spec: etree._Element) -> bool:
    """The spec tests text or an attribute value a skeleton drops (a skeleton keeps the names of
    the ``t-*`` directives: ``[@t-if]`` is a fair test)."""
    if any(LOADED_ID.search(str(value)) for value in spec.attrib.values()):
        return True  # %(xml_id)d is the record's database id in a loaded view: the pack has no ids
    if spec.tag != "xpath":
        return bool(spec_attributes(spec) - KEPT_VALUES - {"string"})
    expr = str(spec.get("expr") or "")
    if _TEXTUAL.search(expr):
        return True
    for match in _ATTRIBUTE.finditer(expr):
        name = match.group(1)
        if name in KEPT_VALUES or name == "string":
            continue
        if not (name.startswith("t-") and expr[match.end() :].lstrip().startswith("]")):
            return True
    return False


def loosened(spec: etree._Element) -> etree._Element | None:
    """``spec`` without its conditions on what a pack skeleton drops: it finds at least what the
    spec finds (an ``@t-if='x'`` is kept as ``@t-if``, an ``@widget='x'`` or ``text()`` test is
    dropped); None when that cannot be told (a position or a negation in the expression)."""
    loose = copy.copy(spec)
    if spec.tag != "xpath":
        for name, value in list(loose.attrib.items()):
            if (name not in KEPT_VALUES and name != "string") or LOADED_ID.search(str(value)):
                del loose.attrib[name]
        return loose
    expr = str(spec.get("expr") or "")
    if _POSITIONAL.search(expr):
        return None
    loose.set("expr", _PREDICATE.sub(_loosen, expr))
    return None if undecidable(loose) else loose


def _loosen(match: re.Match[str]) -> str:
    inside = match.group(1)
    test = _TEST.match(inside)
    if test is not None and LOADED_ID.search(inside):
        return ""
    if test is not None and test.group(1) not in KEPT_VALUES | {"string"}:
        return f"[@{test.group(1)}]" if test.group(1).startswith("t-") else ""
    if _TEXTUAL.search(inside) and "@" not in inside:
        return ""
    return match.group(0)


def may_add(failed: etree._Element, spec: etree._Element, used: set[str]) -> bool:
    """Whether a spec we could not apply might have put ``spec``'s node in the arch."""
    if failed.get("position") == "attributes":
        return bool({str(a.get("name")) for a in failed.iter("attribute")} & used)
    content = etree.Element("data")
    content.extend(copy.deepcopy(child) for child in failed if isinstance(child.tag, str))
    probe = spec
    if spec.tag == "xpath":
        last = last_step(str(spec.get("expr") or ""))
        if last is None:
            return True
        probe = copy.copy(spec)
        probe.set("expr", f"//{last}")
    try:
        return locate(content, probe) is not None
    except Unreadable:
        return True


def spec_attributes(spec: etree._Element) -> set[str]:
    if spec.tag == "xpath":
        expr = str(spec.get("expr") or "")
        return set(_ATTRIBUTE.findall(expr)) | ({"class"} if "hasclass" in expr else set())
    if spec.tag == "field":
        return {"name"}
    return {str(k) for k in spec.attrib if k not in ("position", "version")}
