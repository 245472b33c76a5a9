"""Where the elements an inheriting view adds end up in the arch Odoo combines for it: inside a
``<field>``'s inline sub-view, or in the view itself.

Odoo validates the combined arch after taking each field's sub-views out of it (ir_ui_view.py
``_validate_view``: a child ``<form>``, ``<list>``, ``<kanban>``... of a ``<field>`` is removed and
validated on its own as a view of the comodel), and only then looks for ``attrs`` and ``states`` in
what is left (``_check_xml``). So what a spec puts in a sub-view is not refused for them, whatever the
path says: ``//list/field[@name='price_unit']`` names no field, yet in sale's order form that list is
``order_line``'s sub-view. The question is answered on the rebuilt arch (``view_chain``), not on the
path: an element the view added is in a sub-view when it or one of its ancestors is a sub-view tag of
the series whose parent is a ``<field>``. Probed on the real 18.0 and 19.0 labs (an xpath below a
form's inline list, a ``<list position="inside">``, a new ``<form>`` beside the list: each installs;
the same attrs after a field of the form itself fails).
"""

from __future__ import annotations

from lxml import etree

from odoo_tools.lint._static.view_chain import SpecBudget, combined_after
from odoo_tools.lint._static.view_sources import ChainViews
from odoo_tools.view_inheritance import FROM


def sub_view_lines(views: ChainViews, path: str, tags: tuple[str, ...]) -> dict[int, bool]:
    """For the inheriting views read from file ``path`` (root-relative): each source line of an
    element one of them added -> whether that element is in an inline sub-view of the combined arch.
    Lines of elements not placed (a view whose chain cannot be built, a spec after one that finds
    nothing) are absent: the caller keeps its own reading there."""
    found: dict[int, bool] = {}
    budget = SpecBudget()
    for view in [v for v in views.files.values() if v.path == path and v.parent]:
        arch = combined_after(views, view.xml_id, budget)
        if arch is None:
            continue
        for element in arch.iter():
            line = element.sourceline
            if not isinstance(element.tag, str) or element.get(FROM) != view.xml_id:
                continue
            if not isinstance(line, int) or not line:
                continue
            # one line holding two added elements: a sub-view of either is enough for "not refused"
            found[line] = found.get(line, False) or in_sub_view(element, tags)
    return found


def in_sub_view(element: etree._Element, tags: tuple[str, ...]) -> bool:
    """``element`` or an ancestor is a ``<field>``'s child of a sub-view tag (``tags``)."""
    node: etree._Element | None = element
    while node is not None:
        parent = node.getparent()
        if node.tag in tags and parent is not None and parent.tag == "field":
            return True
        node = parent
    return False
