"""An inheriting view's specs, evaluated against the arch Odoo builds for them at install.

Odoo checks a new view by combining it (odoo/addons/base/models/ir_ui_view.py,
``_get_combined_arch`` and ``_combine``): from the topmost view of its chain, the views taken are
that chain's and every active ``mode="extension"`` descendant of each of them with the same model;
each view's children are sorted by (priority, id), extensions before primary views, and visited
depth first, primary children last. A spec of the new view meets the arch as every view visited
before it left it. That walk is done here, each spec applied by ``odoo_tools.view_inheritance``
(bounded xpath), until the view asked about.

A spec that finds nothing is certain only when every view before it was read and applied; what
may hide its anchor is told instead (``Outcome.doubt``): a view of the pack whose skeleton could
not be applied, an attribute value a skeleton does not keep, a closure module that was not read.
"""

from __future__ import annotations

import collections
import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from odoo_tools.lint._static.spec_doubts import (
    LOADED_ID,
    UNDECIDABLE,
    loosened,
    may_add,
    spec_attributes,
    undecidable,
)
from odoo_tools.lint._static.view_files import ChainView
from odoo_tools.lint._static.view_sources import KEPT_VALUES, ChainViews
from odoo_tools.view_inheritance import Refused, Unreadable, apply_spec, locate, spec_queue

MAX_VIEWS = 2000  # views combined for one spec at most (settings forms have a few hundred)
# Specs looked up at most: in one view (Odoo 18's largest extension has 39), and per check of a
# module, over every walk (a walk re-applies the module's earlier views). Each spec scans an arch
# that the ones before it grew, so a view of 8,000 specs took 10 s and 20,000 over 2 minutes.
MAX_SPECS_PER_VIEW = 1000
MAX_SPECS_PER_CHECK = 10000


@dataclass
class SpecBudget:
    """How many more specs one check may look up (see MAX_SPECS_PER_CHECK)."""

    left: int = MAX_SPECS_PER_CHECK

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OverBudget


class _OverBudget(Exception):
    pass


@dataclass
class Outcome:
    spec: etree._Element  # the spec (or the moved node) that finds nothing
    doubt: str = ""  # why it may still be there; "" when certain
    unchecked: str = ""  # the xpath could not be evaluated (too big, invalid): why


@dataclass
class _State:
    root: etree._Element
    skeleton: bool  # part of the arch comes from a pack skeleton
    failed: list[tuple[str, etree._Element]] = field(default_factory=list)  # (view, spec) not applied
    unsure: set[str] = field(default_factory=set)  # attributes a skeleton spec set to an unknown value
    removed: list[etree._Element] = field(default_factory=list)  # replaced by a skeleton spec ($0 unknown)


def first_unlocated(views: ChainViews, xml_id: str, budget: SpecBudget | None = None) -> Outcome | None:
    """The first spec of view ``xml_id`` that finds nothing where Odoo applies it (Odoo stops
    there), None when each finds its node or the chain cannot be built (a view not known). A view
    of too many specs, or a check over its budget, is an Outcome ``unchecked`` saying so."""
    target = views.get(xml_id)
    count = len(spec_queue([target.arch])) if target is not None else 0
    if target is not None and count > MAX_SPECS_PER_VIEW:
        return Outcome(
            target.arch, unchecked=f"{count} specs, over the {MAX_SPECS_PER_VIEW} looked up in one view"
        )
    try:
        found = _walk(views, xml_id, xml_id, budget or SpecBudget())
    except _OverBudget:
        why = f"over the {MAX_SPECS_PER_CHECK} specs looked up for one module's views"
        return Outcome(target.arch, unchecked=why) if target is not None else None
    return found if isinstance(found, Outcome) else None


def combined(views: ChainViews, xml_id: str) -> etree._Element | None:
    """The arch of view ``xml_id`` combined as Odoo combines it (``get_combined_arch``), None when
    its chain cannot be built. Primary views only: an extension's combined arch is its root's."""
    try:
        found = _walk(views, xml_id, None, SpecBudget())
    except _OverBudget:
        return None
    return found if isinstance(found, etree._Element) else None


def combined_after(views: ChainViews, xml_id: str, budget: SpecBudget | None = None) -> etree._Element | None:
    """The arch Odoo combines when it checks view ``xml_id`` (an extension or a primary view with a
    parent), right after that view's specs: each element they added carries ``FROM`` = ``xml_id``
    and its source line. Applied up to the first spec that finds nothing (Odoo refuses the view
    there); None when the chain cannot be built or the view has too many specs."""
    target = views.get(xml_id)
    if target is None or len(spec_queue([target.arch])) > MAX_SPECS_PER_VIEW:
        return None
    try:
        found = _walk(views, xml_id, xml_id, budget or SpecBudget(), _apply_own)
    except _OverBudget:
        return None
    return found if isinstance(found, etree._Element) else None


_AtStop = Callable[[ChainViews, ChainView, _State, SpecBudget], Outcome | etree._Element | None]


def _walk(
    views: ChainViews, xml_id: str, stop: str | None, budget: SpecBudget, at_stop: _AtStop | None = None
) -> Outcome | etree._Element | None:
    chain = _chain(views, xml_id)
    target = views.get(xml_id)
    # When a view is checked, the views read after it (its module's later ones) do not exist yet.
    latest = target.order if stop and target is not None and not target.skeleton else None
    tree = _hierarchy(views, chain, latest) if chain is not None else None
    top = views.get(chain[-1]) if chain is not None else None
    if tree is None or top is None or not top.primary:
        return None
    state = _State(copy.deepcopy(top.arch), top.skeleton)
    queue = collections.deque(sorted(tree[top.xml_id], key=lambda v: v.primary))
    while queue:
        view = queue.popleft()
        if view.xml_id == stop:
            return (at_stop or _evaluate)(views, view, state, budget)
        _apply(view, state, budget)
        for child in reversed(tree[view.xml_id]):
            if child.primary:
                queue.append(child)
            else:
                queue.appendleft(child)
    return None if stop else state.root


def _chain(views: ChainViews, xml_id: str) -> list[str] | None:
    """``xml_id`` and its ancestors, the topmost last; None when one is not known."""
    chain = [xml_id]
    view = views.get(xml_id)
    while view is not None and view.parent:
        if view.parent in chain:
            return None  # a loop: Odoo refuses it elsewhere
        chain.append(view.parent)
        view = views.get(view.parent)
    return chain if view is not None else None


def _hierarchy(views: ChainViews, chain: list[str], latest: int | None) -> dict[str, list[ChainView]] | None:
    """Each taken view's children in Odoo's order: the chain's views and the extensions below
    each of them that have its model (a view without a model has its parent's)."""
    models: dict[str, str] = {}
    taken: dict[str, ChainView] = {}
    for xml_id in reversed(chain):
        view = views.get(xml_id)
        if view is None:
            return None
        taken[xml_id] = view
        models[xml_id] = view.model or models.get(view.parent or "", "")
    pending = list(chain)
    while pending:
        parent = pending.pop()
        for child_id in views.children_of(parent):
            child = views.get(child_id)
            if child is None or child_id in taken or child.primary or (latest and child.order > latest):
                continue
            if (child.model or models[parent]) != models[parent]:
                continue
            taken[child_id] = child
            models[child_id] = models[parent]
            pending.append(child_id)
            if len(taken) > MAX_VIEWS:
                return None
    hierarchy: dict[str, list[ChainView]] = collections.defaultdict(list)
    for view in taken.values():
        if view.parent:
            hierarchy[view.parent].append(view)
    for children in hierarchy.values():
        children.sort(key=lambda v: (v.priority, v.order))
    return hierarchy


def _apply(view: ChainView, state: _State, budget: SpecBudget) -> None:
    """Apply every spec of ``view`` that can be; note what the arch may lack or hold instead."""
    state.skeleton = state.skeleton or view.skeleton
    for spec in spec_queue([view.arch]):
        if not view.skeleton:  # the pack's views are Odoo's own: few, and not a repository's
            budget.take()
        try:
            node = locate(state.root, spec)
        except Unreadable:
            node = None
        if node is None:
            state.failed.append((view.xml_id, spec))
            continue
        if view.skeleton and spec.get("position") == "attributes":
            # The skeleton dropped the values (and add/remove): the attribute is unknown now.
            state.unsure |= {str(a.get("name")) for a in spec.iter("attribute")} & KEPT_VALUES
            continue
        if view.skeleton and spec.get("position") == "replace" and spec.get("mode", "outer") == "outer":
            state.removed.append(copy.deepcopy(node))  # a "$0" in its text would have kept it
        try:
            state.root = apply_spec(state.root, spec, view.xml_id, node)
        except (LookupError, ValueError, TypeError):  # TypeError: lxml refuses a sibling of the root
            state.failed.append((view.xml_id, spec))


def _apply_own(views: ChainViews, view: ChainView, state: _State, budget: SpecBudget) -> etree._Element:
    """The arch with ``view``'s specs applied, up to the first that finds nothing."""
    for spec in spec_queue([view.arch]):
        budget.take()
        try:
            node = locate(state.root, spec)
            if node is None:
                break
            state.root = apply_spec(state.root, spec, view.xml_id, node)
        except (Unreadable, LookupError, ValueError, TypeError):
            break
    return state.root


def _evaluate(views: ChainViews, view: ChainView, state: _State, budget: SpecBudget) -> Outcome | None:
    for spec in spec_queue([view.arch]):
        budget.take()
        try:
            node = locate(state.root, spec)
            moved = [c for c in spec if isinstance(c.tag, str) and c.get("position") == "move"]
            missing = (
                None if node is None else next((m for m in moved if locate(state.root, m) is None), None)
            )
            lost = spec if node is None else missing
            if lost is not None:
                return Outcome(lost, _doubt(views, lost, state))
        except Refused as exc:
            return Outcome(spec, unchecked=str(exc.__cause__ or exc))
        except Unreadable:
            return None  # lxml cannot evaluate it: the xpath check's business, not an anchor
        try:
            state.root = apply_spec(state.root, spec, view.xml_id, node)
        except (LookupError, ValueError, TypeError):  # TypeError: lxml refuses a sibling of the root
            return None
    return None


def _doubt(views: ChainViews, spec: etree._Element, state: _State) -> str:
    """Why the spec's node may be in Odoo's arch though it is not in ours; "" when it cannot be."""
    loaded = any(LOADED_ID.search(str(value)) for value in spec.attrib.values())
    if (state.skeleton or loaded) and undecidable(spec):
        # Without what the pack drops, does it still find nothing? Then it finds nothing with it.
        loose = loosened(spec)
        if loose is None or locate(state.root, loose) is not None:
            return UNDECIDABLE
        spec = loose
    used = spec_attributes(spec)
    for xml_id, failed in state.failed:
        if may_add(failed, spec, used):
            return f"view {xml_id}, which may add it, could not be applied from the series pack's skeleton"
    if used & state.unsure:
        changed = ", ".join(sorted(used & state.unsure))
        return f"a core view changes {changed} to a value the pack does not keep"
    if any(locate(removed, spec) is not None for removed in state.removed):
        return "a core view replaced its node (a $0 the pack does not keep may have put it back)"
    if views.unread:
        return f"module(s) {', '.join(sorted(views.unread))} of its dependencies were not read"
    return ""
