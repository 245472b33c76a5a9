"""Several fields of one name in a view (19.0's partner form shows ``name`` twice, for a company
and for a person, where 18.0 told them by ``id``): which one a gone anchor became, and an xpath
that finds one of them alone. Never by a translated attribute (string, placeholder, title,
help...): Odoo refuses those as selectors ("View inheritance may not use attribute ... as a
selector", ir_ui_view.py) and they change with the user's language."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from lxml import etree

from odoo_tools.view_inheritance import FROM

_TRANSLATED = frozenset({"string", "placeholder", "title", "help", "confirm", "alt", "aria-label"})


class Ambiguous(Exception):
    """Several elements could be what the anchor became: no retarget."""


def told_apart(
    old: etree._Element,
    old_tree: etree._Element,
    candidates: list[etree._Element],
    sure: Callable[[etree._Element], bool],
) -> tuple[etree._Element, str]:
    """Of several fields of the old field's name, the one that keeps what told the old field
    from the others of its name in the old view: one or two of its attributes (never a translated
    one: 18.0's ``<field id="individual" name="name" invisible="is_company">`` is 19.0's only
    name field with ``invisible="is_company"``). Every telling set must point to that one."""
    same = [n for n in old_tree.iter("field") if n.get("name") == old.get("name")]
    attributes = [(str(k), str(v)) for k, v in old.attrib.items() if _telling(str(k))]
    found: set[etree._Element] = set()
    told: tuple[tuple[str, str], ...] = ()
    for size in (1, 2):
        for tests in itertools.combinations(attributes, size):
            if [n for n in same if all(n.get(k) == v for k, v in tests)] != [old]:
                continue  # does not tell it apart in the old view
            matches = [n for n in candidates if all(n.get(k) == v for k, v in tests)]
            if len(matches) > 1:
                raise Ambiguous
            found.update(matches)
            told = told or (tests if matches else ())
        if found:
            break
    if len(found) != 1 or not sure(next(iter(found))):
        raise Ambiguous
    target = next(iter(found))
    was = " ".join(f'{k!s}="{v!s}"' for k, v in old.attrib.items() if k in ("id", "name"))
    now = " ".join(f'{k}="{v}"' for k, v in told)
    return target, f'<field {was}> is the one <field name="{old.get("name")}"> with {now} in the view'


def _telling(attribute: str) -> bool:
    return (
        attribute not in _TRANSLATED
        and attribute not in ("name", "id", FROM)
        and not attribute.startswith("{")
    )


def field_locator(target: etree._Element, tree: etree._Element) -> tuple[tuple[str, str], ...] | None:
    """Attributes that, with its name, find the field ``target`` and nothing else in ``tree``
    (never a translated one: Odoo refuses those as selectors)."""
    name = target.get("name")
    same = [n for n in tree.iter("field") if n.get("name") == name]
    attributes = [(str(k), str(v)) for k, v in target.attrib.items() if _telling(str(k)) and quotable(str(v))]
    for size in (1, 2):
        for tests in itertools.combinations(attributes, size):
            if [n for n in same if all(n.get(k) == v for k, v in tests)] == [target]:
                return tests
    return None


def quotable(value: str) -> bool:
    return not ("'" in value and '"' in value)
