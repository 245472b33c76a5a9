"""What to do with a spec whose anchor is gone from the target's core view, knowing (when the
source series' Odoo source is given) the element it anchored on in the source series' view:

- renamed or moved: the same element under a new name or tag (``<div name="X">`` that became
  ``<block name="sale_X">``, a ``<filter>`` renamed with the same domain) that points to ONE
  element of the new view -> the spec targets it, with the same position;
- gone, ``after``/``before`` it: the nearest sibling it had on that side (else on the other
  side) that the new view still has once -> ``after`` the one before it / ``before`` the one
  after it; ``after`` it when it was the last child: the nearest ancestor it was the end of
  (last child of last child...) that the new view still has once -> ``inside`` that; ``inside``
  it: its nearest ancestor the new view still has once -> ``inside`` that;
- gone, a ``<page>`` none of whose sibling pages the new view has, the spec adding only pages
  ``after``/``before`` it: ``inside`` its notebook when the new view has that one by name, else
  the pages get a ``<notebook>`` of their own, placed as a gone element ``after`` that notebook
  would be (never in another notebook of the new view: it holds other pages, maybe hidden);
- gone, the spec only changed it (``attributes``, an empty ``replace``) -> the spec goes;
- anything else (``replace`` with content, ambiguous matches, an anchor that was not core):
  nothing (a finding).

Without the source series' view only a rename the new view alone makes unambiguous is taken.
The spec is rewritten in place (``retarget_plan``). What a renamed or moved anchor became is
told by ``renamed_anchors``, the element of the new view that an old one is by ``counterparts``."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping

from lxml import etree

from odoo_tools.migrate.passes.counterparts import counterpart, unique_locator
from odoo_tools.migrate.passes.renamed_anchors import (
    MODULE,
    describe,
    existed,
    renamed_element,
)
from odoo_tools.migrate.passes.retarget_plan import Plan
from odoo_tools.migrate.passes.same_name_fields import Ambiguous, field_locator
from odoo_tools.view_inheritance import FROM, locate

_PARENT_STEPS = re.compile(r"(?:/\.\.)+$")  # an xpath ending on its anchor's parent: ...//field[@id='x']/..


def plan_for(
    spec: etree._Element,
    old_node: etree._Element | None,
    tree: etree._Element,
    old_tree: etree._Element | None,
    sure: Callable[[etree._Element], bool] = lambda node: True,
    renamed_fields: Mapping[str, str] | None = None,
) -> Plan | None:
    """``sure`` tells the elements of ``tree`` the module surely has (added by a view of a
    module it depends on): the only ones it may be retargeted to; ``renamed_fields`` (old name
    -> new) the core fields the step renamed, whose names an element's name may carry."""
    position = str(spec.get("position") or "inside")
    parents = _PARENT_STEPS.search(str(spec.get("expr") or "")) if spec.tag == "xpath" else None
    if parents is not None and old_tree is not None:  # the anchor's parent: follow the anchor first
        followed = _through_child(spec, parents, (tree, old_tree), sure, position, renamed_fields or {})
        if followed is not None:
            return followed
    try:
        renamed = _renamed_plan(spec, old_node, tree, old_tree, sure, position, renamed_fields or {})
    except Ambiguous:
        return None
    if renamed is not None:
        return renamed
    if old_node is None:
        return None
    gone = f"{describe(old_node)} is gone"
    if position == "attributes" or (position == "replace" and not _has_content(spec)):
        return Plan(None, position, gone)
    beside = _beside(old_node, position, (tree, old_tree), sure, gone)
    if beside is not None:
        return beside
    if old_node.tag == "page" and position in ("after", "before") and _only_pages(spec):
        own = _own_notebook(old_node, (tree, old_tree), sure, gone)
        if own is not None:
            return own
    name = old_node.get("name")
    if old_node.tag == "field" and position in ("after", "before") and _nowhere(name, tree):
        # what sat beside a field the view no longer shows (19.0's user form lost its "Menus
        # Customization" group and action_id with it): no place says where it belongs now
        return Plan(None, position, f"{gone} and the view shows no field {name} anymore", lost=True)
    return None


def _beside(
    old_node: etree._Element,
    position: str,
    trees: tuple[etree._Element, etree._Element | None],
    sure: Callable[[etree._Element], bool],
    gone: str,
) -> Plan | None:
    """The place of the nearest neighbour (a sibling, else an ancestor) ``old_node`` had that the
    new view still has once."""
    tree, old_tree = trees
    neighbours: list[tuple[etree._Element, str, str]] = []
    if position in ("after", "before"):  # where it was: after what preceded it, before what followed
        previous = [(s, "after", "was right before it") for s in old_node.itersiblings(preceding=True)]
        following = [(s, "before", "was right after it") for s in old_node.itersiblings()]
        neighbours += previous + following if position == "after" else following + previous
        if position == "after":  # after the last child: at the end of its parent (or of the one
            # holding that parent last: a 16.0 settings box whose inner <div>s 17.0's <setting> lost)
            node: etree._Element | None = old_node
            while node is not None and not any(isinstance(s.tag, str) for s in node.itersiblings()):
                node = node.getparent()
                if node is not None:
                    neighbours.append((node, "inside", "held it last"))
    elif position == "inside":
        neighbours += [(a, "inside", "held it") for a in old_node.iterancestors()]
    for old_neighbour, new_position, relation in neighbours:
        found = counterpart(old_neighbour, tree, sure)
        if found is not None:
            target, locator = found
            why = f"{gone}; {describe(old_neighbour)} {relation}"
            if new_position != "inside":
                slot = _slot((old_node, old_neighbour, target), new_position, tree, (old_tree, sure))
                if isinstance(slot, etree._Element):  # renamed in place: the element now there
                    where = unique_locator(slot, tree)
                    if where is not None:
                        return Plan(slot, position, f"{gone}; {describe(slot)} sits where it was", where)
                if slot is not True:
                    why += "; the new view has more where it was: check the order"
            if target is tree and old_node.getparent() is not old_neighbour:
                # a page or a card's content at the root of a form or kanban may not show at all
                why += " (now the view's root itself: what the spec adds may not show there)"
            return Plan(target, new_position, why, locator)
    return None


def _only_pages(spec: etree._Element) -> bool:
    children = [child for child in spec if isinstance(child.tag, str)]
    return bool(children) and all(child.tag == "page" for child in children) and not (spec.text or "").strip()


def _own_notebook(
    page: etree._Element,
    trees: tuple[etree._Element, etree._Element | None],
    sure: Callable[[etree._Element], bool],
    gone: str,
) -> Plan | None:
    """Pages beside a gone page none of whose sibling pages the new view has: the notebook the
    module knew is gone with them (17.0's server action form lost 16.0's notebook, its pages
    and their names). In that notebook's counterpart when the new view has it by name; else in
    a notebook of their own where the old one was (after what preceded it...), never in another
    notebook of the new view, which holds other pages, maybe under its own invisible."""
    notebook = page.getparent()
    if notebook is None or notebook.tag != "notebook":
        return None
    found = counterpart(notebook, trees[0], sure)
    if found is not None:
        return Plan(
            found[0], "inside", f"{gone} with every page beside it; {describe(notebook)} held it", found[1]
        )
    placed = _beside(notebook, "after", trees, sure, f"{gone}, and so is its notebook (none of its pages)")
    if placed is None:
        return None
    return dataclasses.replace(
        placed, wrap="notebook", why=f"{placed.why}; the pages get a <notebook> of their own there"
    )


def _slot(
    placed: tuple[etree._Element, etree._Element, etree._Element],
    position: str,
    tree: etree._Element,
    knowing: tuple[etree._Element | None, Callable[[etree._Element], bool]],
) -> bool | etree._Element:
    """What the new view has where the gone element was, between ``target`` (its ``neighbour``'s
    counterpart) and the nearest element that survived on its other side: nothing new (True),
    one element of its tag the old view did not have (that element: 16.0's invoice report column
    <th name="th_price_unit"> is 17.0's <th name="th_discount"> between the same neighbours, and
    "after th_priceunit" would put a module's columns before it), or more (False)."""
    old_node, neighbour, target = placed
    old_tree, sure = knowing
    preceding = position == "before"  # the other side: before the gone element when placing after
    old_between = 0
    for sibling in old_node.itersiblings(preceding=not preceding):  # back to the neighbour
        if sibling is neighbour:
            break
        old_between += _counts(sibling)
    for old_other in old_node.itersiblings(preceding=preceding):
        found = counterpart(old_other, tree, sure)
        if found is None:
            old_between += _counts(old_other)
            continue
        gap: list[etree._Element] = []
        for sibling in target.itersiblings(preceding=preceding):
            if sibling is found[0]:
                if len([n for n in gap if _counts(n)]) <= old_between:
                    return True
                new = [n for n in gap if n.tag == old_node.tag and _counts(n) and not existed(n, old_tree)]
                return new[0] if len(new) == 1 and sure(new[0]) else False
            gap.append(sibling)
        return False  # no longer on the same side of it
    return True  # nothing survived on that side: no neighbour to keep apart


def _counts(node: etree._Element) -> int:
    return int(isinstance(node.tag, str) and node.get(FROM) != MODULE)


def _nowhere(name: str | None, tree: etree._Element) -> bool:
    return bool(name) and not any(n.get("name") == name for n in tree.iter("field"))


def _through_child(
    spec: etree._Element,
    parents: re.Match[str],
    trees: tuple[etree._Element, etree._Element],
    sure: Callable[[etree._Element], bool],
    position: str,
    renamed_fields: Mapping[str, str],
) -> Plan | None:
    """For ``<path to X>/..``: X renamed (or told apart) in the new view, then its parent."""
    tree, old_tree = trees
    inner = copy.copy(spec)
    inner.set("expr", str(spec.get("expr"))[: parents.start()])
    old_inner = locate(old_tree, inner)
    if old_inner is None or locate(tree, inner) is not None:
        return None
    try:
        plan = _renamed_plan(inner, old_inner, tree, old_tree, sure, position, renamed_fields)
    except Ambiguous:
        return None
    target = plan.target if plan is not None else None
    for _ in range(parents.group(0).count("/..")):
        target = target.getparent() if target is not None else None
    if plan is None or target is None:
        return None
    why = f"{plan.why} (the spec's anchor is its parent)"
    return Plan(target, position, why, plan.locator, plan.more, parents.group(0))


def _renamed_plan(
    spec: etree._Element,
    old_node: etree._Element | None,
    tree: etree._Element,
    old_tree: etree._Element | None,
    sure: Callable[[etree._Element], bool],
    position: str,
    renamed_fields: Mapping[str, str],
) -> Plan | None:
    """The plan to the element the anchor became; raises Ambiguous when it cannot be told (or
    found alone by an expression)."""
    renamed = renamed_element(spec, old_node, tree, old_tree, sure, renamed_fields)
    if renamed is None:
        return None
    target, why = renamed
    locator = unique_locator(target, tree)
    if locator is not None:
        return Plan(target, position, why, locator)
    more = field_locator(target, tree) if target.tag == "field" else None
    if more is None:
        raise Ambiguous
    return Plan(target, position, why, ("field", "name", str(target.get("name"))), more)


def _has_content(spec: etree._Element) -> bool:
    return bool((spec.text or "").strip()) or any(isinstance(child.tag, str) for child in spec)
