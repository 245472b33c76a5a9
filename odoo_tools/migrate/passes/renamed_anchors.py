"""What an inherited view's gone anchor became in the new series' core view: the same element
under a new name or tag (``<div name="X">`` that became ``<block name="sale_X">``, a settings
``<div data-key>`` now an ``<app name>``), moved elsewhere, renamed with a field the step
renamed, or told apart from fields of the same name by its untranslated attributes. Raises
``Ambiguous`` when several elements could be it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from lxml import etree

from odoo_tools.migrate.passes.same_name_fields import Ambiguous, told_apart
from odoo_tools.view_inheritance import FROM, locating_attributes

MODULE = "~module"  # what the module's own specs add to a view (never a target of a rename)
IDENTITIES = ("name", "id")
# the same element under another tag: 17.0's settings turned <div data-key="account"
# data-string="Invoicing"> into <app name="account" data-string="Invoicing">
SAME_IDENTITY = (("id", "id"), ("data-key", "name"), ("data-string", "data-string"))
_SAME_CONTENT = ("string", "domain", "help", "title")
_NAMED_STEP = re.compile(r"""(?:^|/)([\w:-]+)\[@name\s*=\s*(['"])([\w.-]+)\2\]$""")


def describe(element: etree._Element) -> str:
    for attribute in ("name", "id", "data-key", "string", "title", "for", "domain"):
        if element.get(attribute):
            return f'<{element.tag} {attribute}="{element.get(attribute)}">'
    return f"<{element.tag}>"


def renamed_element(
    spec: etree._Element,
    old: etree._Element | None,
    tree: etree._Element,
    old_tree: etree._Element | None,
    sure: Callable[[etree._Element], bool],
    renamed_fields: Mapping[str, str],
) -> tuple[etree._Element, str] | None:
    """The element of ``tree`` that the anchor became; raises Ambiguous when several could be."""
    candidates = [
        n
        for n in tree.iter()
        if isinstance(n.tag, str) and n.tag != "field" and n.get(FROM) != MODULE and sure(n)
    ]
    if old is None:
        if old_tree is not None:
            return None  # not a core element of the source series either: not ours to guess
        tag, name = _spec_identity(spec)
        if not name or tag == "field":
            return None
        return _by_name(tag, name, candidates, None, "the new view alone")
    if old.tag == "field":  # its identity is its name (a renamed field is a model change): moved?
        moved = [n for n in tree.iter("field") if n.get("name") == old.get("name") and n.get(FROM) != MODULE]
        if len(moved) > 1 and old_tree is not None:
            return told_apart(old, old_tree, moved, sure)
        if len(moved) > 1 or (moved and not sure(moved[0])):
            raise Ambiguous
        return (moved[0], f"{describe(old)} is elsewhere in the view") if moved else None
    origin = str(old.get(FROM) or "")
    scope = [n for n in candidates if n.get(FROM) == origin] or candidates
    where = f"in {origin}" if origin else "in the view"
    if old.get("name"):
        found = _by_name(str(old.tag), str(old.get("name")), scope, old_tree, where)
        if found is None:
            found = _by_field_rename(old, scope, old_tree, renamed_fields, where)
        if found is not None:
            return found
    for old_attribute, new_attribute in SAME_IDENTITY:
        value = old.get(old_attribute)
        matches = [n for n in scope if n.get(new_attribute) == value] if value else []
        if len(matches) > 1:
            raise Ambiguous
        if matches:
            return matches[0], f"{describe(old)} is {describe(matches[0])} {where}"
    for attribute in _SAME_CONTENT:
        value = _normal(old.get(attribute))
        if not value:
            continue
        matches = [
            n for n in scope
            if n.tag == old.tag and _normal(n.get(attribute)) == value and not existed(n, old_tree)
        ]  # fmt: skip
        if len(matches) > 1:
            raise Ambiguous
        if matches:
            return matches[0], f"{describe(old)} became {describe(matches[0])} (same {attribute}) {where}"
    return None


def _by_name(
    tag: str, name: str, scope: list[etree._Element], old_tree: etree._Element | None, where: str
) -> tuple[etree._Element, str] | None:
    """The element named ``name`` (another tag, or moved), else the one whose name extends it
    (``X`` -> ``sale_X``, a ``<div>`` that became a ``<block>``/``<setting>``)."""
    old = f'<{tag} name="{name}">'
    same = [n for n in scope if n.get("name") == name]
    if len(same) > 1:
        raise Ambiguous
    if same:
        now = describe(same[0])
        return same[0], f"{old} is elsewhere {where}" if now == old else f"{old} is {now} {where}"
    kinds = {tag, "block", "setting"} if tag == "div" else {tag}
    longer = [
        n for n in scope
        if n.tag in kinds and _extends(str(n.get("name") or ""), name) and not existed(n, old_tree)
    ]  # fmt: skip
    if len(longer) > 1:
        raise Ambiguous
    if longer:
        return longer[0], f"{old} became {describe(longer[0])} {where}"
    return None


def _by_field_rename(
    old: etree._Element,
    scope: list[etree._Element],
    old_tree: etree._Element | None,
    renamed_fields: Mapping[str, str],
    where: str,
) -> tuple[etree._Element, str] | None:
    """The one element of the old one's tag whose name is the old name with a renamed field's
    old name (a whole ``_``-separated part of it) replaced by the new one: 16.0's report cell
    ``<td name="move_line_aggregated_qty_done">`` is 17.0's ``move_line_aggregated_quantity``,
    as stock.move.line's qty_done became quantity."""
    name = str(old.get("name"))
    for before, after in renamed_fields.items():
        new_name = re.sub(rf"(?<![^_]){re.escape(before)}(?![^_])", after, name)
        if new_name == name:
            continue
        matches = [n for n in scope if n.tag == old.tag and n.get("name") == new_name]
        if len(matches) > 1:
            raise Ambiguous
        if matches and not existed(matches[0], old_tree):
            why = f"{describe(old)} is {describe(matches[0])} {where} (the field {before} is {after})"
            return matches[0], why
    return None


def _extends(candidate: str, name: str) -> bool:
    return candidate != name and (candidate.endswith(f"_{name}") or candidate.startswith(f"{name}_"))


def existed(node: etree._Element, old_tree: etree._Element | None) -> bool:
    """Whether the source series' view had this element already (then it is not a new name)."""
    if old_tree is None:
        return False
    for attribute in IDENTITIES:
        value = node.get(attribute)
        if value:
            return any(o.get(attribute) == value for o in old_tree.iter(node.tag))
    return True  # nothing to tell it by: not taken for a rename


def _spec_identity(spec: etree._Element) -> tuple[str, str]:
    if spec.tag == "xpath":
        match = _NAMED_STEP.search(str(spec.get("expr") or "").strip())
        return (match.group(1), match.group(3)) if match else ("", "")
    if set(locating_attributes(spec)) == {"name"}:
        return str(spec.tag), str(spec.get("name"))
    return "", ""


def _normal(value: str | None) -> str:
    return " ".join((value or "").split())
