"""Odoo's view inheritance, as far as anchors go: where a spec (``<xpath expr>``, ``<field name>``,
any other tag with attributes) lands in a parent arch, and the parent arch after the spec is
applied (odoo/tools/template_inheritance.py: ``locate_node`` and ``apply_inheritance_specs``).

Text, branding and the Python expressions of ``<attribute add/remove>`` are left out: they move no
anchor (the list forms, ``class`` most of all, are applied: ``hasclass()`` anchors on them). Every
element a spec adds is marked with the view it comes from (``FROM``), so a later question "which
view put this element there" has an answer. Migration (``odoo_tools.migrate``) and the gate's view
checks (``odoo_tools.lint``) both apply specs through here."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable

from lxml import etree

from odoo_tools.view_xpath import XPathInvalid, XPathRefused, find

FROM = "{urn:assista-odoo:view}from"  # the xml id of the view that added an element


def _hasclass(context: object, *classes: str) -> bool:
    """Odoo's own XPath function (odoo/tools/template_inheritance.py)."""
    node = context.context_node  # type: ignore[attr-defined]
    present = set((node.get("class") or "").split())
    return all(c in present for c in classes)


_EXTENSIONS: dict[tuple[str | None, str], Callable[..., bool]] = {(None, "hasclass"): _hasclass}


class Unreadable(ValueError):
    """The spec cannot be evaluated (an xpath lxml cannot compile or run)."""


class Refused(Unreadable):
    """The spec's xpath is too big, too deep or too slow to evaluate (``odoo_tools.view_xpath``)."""


def spec_elements(arch_field: etree._Element) -> list[etree._Element]:
    """The specs of an inheriting view's ``<field name="arch">`` (a ``<data>`` wrapper unwrapped),
    in Odoo's order: a ``<data>``'s children go to the end of the queue."""
    return spec_queue([child for child in arch_field if isinstance(child.tag, str)])


def spec_queue(specs: list[etree._Element]) -> list[etree._Element]:
    """``specs`` as odoo.tools.template_inheritance takes them: a ``<data>`` is replaced by its
    children at the end of the queue."""
    found: list[etree._Element] = []
    pending = list(specs)
    while pending:
        spec = pending.pop(0)
        if spec.tag == "data":
            pending += [child for child in spec if isinstance(child.tag, str)]
        elif isinstance(spec.tag, str):
            found.append(spec)
    return found


def xpath(root: etree._Element, expr: str) -> list[etree._Element]:
    """What ``expr`` (a module's, or an Odoo source's: untrusted) selects, evaluated within bounds."""
    try:
        return find(root, expr, _EXTENSIONS)
    except XPathRefused as exc:
        raise Refused(f"{expr[:200]}: {exc}") from exc
    except XPathInvalid as exc:
        raise Unreadable(f"{expr[:200]}: {exc}") from exc


def locating_attributes(spec: etree._Element) -> dict[str, str]:
    return {str(k): str(v) for k, v in spec.attrib.items() if k not in ("position", "version", FROM)}


def locate(root: etree._Element, spec: etree._Element) -> etree._Element | None:
    """The node of ``root``'s tree the spec applies to, as Odoo finds it (the first match)."""
    if spec.tag == "xpath":
        nodes = xpath(root, str(spec.get("expr") or ""))
        return nodes[0] if nodes else None
    if spec.tag == "field":
        return next((n for n in root.iter("field") if n.get("name") == spec.get("name")), None)
    wanted = locating_attributes(spec)
    for node in root.iter(str(spec.tag)):
        if all(node.get(name) == value for name, value in wanted.items()):
            return node
    return None


def apply_spec(
    root: etree._Element, spec: etree._Element, view: str, node: etree._Element | None = None
) -> etree._Element:
    """``root`` with ``spec`` (of the view ``view``) applied at ``node`` (located when None);
    returns the new root (a ``replace`` of the root element replaces it). Raises LookupError when
    the anchor, or a node it moves, is not there."""
    node = locate(root, spec) if node is None else node
    if node is None:
        raise LookupError(etree.tostring(spec, encoding="unicode")[:200])
    position = spec.get("position", "inside")
    if position == "attributes":
        for child in spec.iter("attribute"):
            name = str(child.get("name") or "")
            if child.get("add") or child.get("remove"):
                if name in _PYTHON_ATTRIBUTES or name.startswith("decoration-"):
                    continue  # an expression: no anchor
                value = _listed(node.get(name, ""), child)
            else:
                value = child.text or ""
            if value:
                node.set(name, value)
            elif name in node.attrib:
                del node.attrib[name]
        return root
    if position == "replace" and spec.get("mode", "outer") == "inner":
        for child in list(node):
            node.remove(child)
        node.extend(_content(root, spec, view))
        return root
    if position == "replace":
        spec = _with_node(spec, node)
    content = _content(root, spec, view)
    if position == "replace":
        parent = node.getparent()
        if parent is None:
            if not content:
                return root
            if node.get("t-name"):  # Odoo keeps a template's name on its new root
                content[0].set("t-name", str(node.get("t-name")))
            return content[0]
        for child in content:
            node.addprevious(child)
        parent.remove(node)
    elif position == "inside":
        node.extend(content)
    elif position == "after":
        for child in reversed(content):
            node.addnext(child)
    elif position == "before":
        for child in content:
            node.addprevious(child)
    return root


_PYTHON_ATTRIBUTES = frozenset(
    {"readonly", "required", "invisible", "column_invisible", "t-if", "t-elif"}
)  # odoo.tools.template_inheritance.PYTHON_ATTRIBUTES: add/remove join expressions with and/or


def _listed(value: str, child: etree._Element) -> str:
    """An ``<attribute add= remove= separator=>`` applied to ``value`` as Odoo does."""
    separator: str | None = child.get("separator") or ","
    if separator == " ":
        separator = None  # squash spaces
    values = (s.strip() for s in value.split(separator))
    to_add = [s for s in (s.strip() for s in str(child.get("add") or "").split(separator)) if s]
    to_remove = {s.strip() for s in str(child.get("remove") or "").split(separator)}
    kept = (v for v in values if v and v not in to_remove)
    return (separator or " ").join(itertools.chain(kept, to_add))


def _with_node(spec: etree._Element, node: etree._Element) -> etree._Element:
    """A ``replace`` spec whose elements holding the text ``$0`` get a copy of the replaced node
    (Odoo puts the node there); the spec itself when none does."""
    holders = [el for el in spec.iter() if isinstance(el.tag, str) and (el.text or "").strip() == "$0"]
    if not holders:
        return spec
    spec = copy.deepcopy(spec)
    for holder in (el for el in spec.iter() if isinstance(el.tag, str) and (el.text or "").strip() == "$0"):
        holder.text = ""
        holder.append(copy.deepcopy(node))
    return spec


def _content(root: etree._Element, spec: etree._Element, view: str) -> list[etree._Element]:
    """The spec's children to insert: copies marked with ``view``, or the nodes a
    ``position="move"`` child takes out of the tree."""
    content = []
    for child in spec:
        if not isinstance(child.tag, str):
            continue
        if child.get("position") == "move":
            moved = locate(root, child)
            if moved is None or moved.getparent() is None:
                raise LookupError(etree.tostring(child, encoding="unicode")[:200])
            moved.getparent().remove(moved)  # type: ignore[union-attr]
            moved.tail = None
            content.append(moved)
            continue
        added = copy.deepcopy(child)
        added.tail = None
        for element in added.iter():
            if isinstance(element.tag, str) and element.get(FROM) is None:
                element.set(FROM, view)
        content.append(added)
    return content


def mark(root: etree._Element, view: str) -> etree._Element:
    for element in root.iter():
        if isinstance(element.tag, str):
            element.set(FROM, view)
    return root
