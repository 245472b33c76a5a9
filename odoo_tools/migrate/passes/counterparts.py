"""The element of a series' new core view that an element of its old view is, found alone: by the
same tag and name (or id), else by its identity under another tag; and the one attribute that
finds an element and nothing else in a view, which a retargeted spec's expression is made of."""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from odoo_tools.migrate.passes.renamed_anchors import (
    IDENTITIES,
    MODULE,
    SAME_IDENTITY,
)
from odoo_tools.migrate.passes.same_name_fields import quotable
from odoo_tools.view_inheritance import FROM

# Never a translated attribute (string, title, help...): Odoo refuses a view inheriting through
# one ("View inheritance may not use attribute 'string' as a selector", ir_ui_view.py)
_LOCATORS = ("name", "id", "for")


def counterpart(
    old: etree._Element, tree: etree._Element, sure: Callable[[etree._Element], bool]
) -> tuple[etree._Element, tuple[str, str, str]] | None:
    """The one element of ``tree`` with ``old``'s tag and name (or id), else the one with its
    identity under another tag (a settings ``<div id="x">`` that became ``<setting id="x">``)."""
    if not isinstance(old.tag, str) or old.get(FROM) == MODULE:
        return None
    if old.getparent() is None and old.tag == tree.tag and sure(tree):
        # the view's root (a settings <form> whose 16.0 <div class="settings"> is gone in 17.0)
        return tree, (str(tree.tag), "", "")
    for attribute in IDENTITIES:
        value = old.get(attribute)
        if value:
            matches = [n for n in tree.iter(old.tag) if n.get(attribute) == value]
            if len(matches) == 1 and quotable(value) and sure(matches[0]):
                return matches[0], (str(old.tag), attribute, value)
            if matches:
                return None
    if old.tag == "field":
        return None
    for old_attribute, new_attribute in (("name", "name"), *SAME_IDENTITY):
        value = old.get(old_attribute)
        if not value or not quotable(value):
            continue
        matches = [n for n in tree.iter() if n.get(new_attribute) == value and n.tag != "field"]
        if len(matches) == 1 and isinstance(matches[0].tag, str):
            new_tag = str(matches[0].tag)
            if [n for n in tree.iter(new_tag) if n.get(new_attribute) == value] == matches and sure(
                matches[0]
            ):
                return matches[0], (new_tag, new_attribute, value)
        if matches:
            return None
    return None


def unique_locator(target: etree._Element, tree: etree._Element) -> tuple[str, str, str] | None:
    """A tag and attribute value that find ``target`` and nothing else in ``tree``."""
    for attribute in _LOCATORS:
        value = target.get(attribute)
        alone = value and [n for n in tree.iter(target.tag) if n.get(attribute) == value] == [target]
        if value and alone and quotable(value):
            return str(target.tag), attribute, value
    return None
