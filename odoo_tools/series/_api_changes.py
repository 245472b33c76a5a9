"""What Odoo removed or renamed, per series: the static checks FIND uses of ``old`` with these
entries, and ``odoo_tools.migrate`` attaches its rewrites to the same ``id`` to FIX them.

An entry is one change as it stands on one series: ``since`` is the first series where it holds,
``severity`` what a use of ``old`` is there (error: the install, an upgrade or the runtime breaks;
warning: deprecated, or ignored without breaking; info: style). The same construct turning from
deprecated into removed later is a second entry with its own id. ``source`` names the Odoo file the
fact was read in. Ids are stable: they are the findings' codes and the migration rules' keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from odoo_tools.findings import Severity

# Where ``old`` is written, so a check knows what to look at:
# xml-attribute: an attribute of an element inside a view arch; xml-element: an element (tag) of a
# view arch; view-mode: a word of an act_window's view_mode; python-method: a method a model class
# defines (``def old``); python-call: a call or attribute chain in Python code (``old(...)``);
# route-argument: a keyword of ``@http.route``; model-attribute: a class attribute of a model;
# xml-data: a ``<field>`` attribute value in data files; qweb-directive: a ``t-*`` attribute of a
# template; icon-class: a CSS class in views/templates; xml-id: an external id that is gone.
Kind = Literal[
    "xml-attribute",
    "xml-element",
    "view-mode",
    "python-method",
    "python-call",
    "route-argument",
    "model-attribute",
    "xml-data",
    "qweb-directive",
    "icon-class",
    "xml-id",
]


@dataclass(frozen=True)
class ApiChange:
    """One removed or renamed construct of Odoo, as it stands from series ``since`` on."""

    id: str  # stable; also the code of the findings about it, e.g. "removed-attrs"
    since: str  # the first series where this holds, e.g. "17.0"
    kind: Kind
    old: str  # what the module still writes
    new: str  # what replaces it ("" when nothing does)
    severity: Severity  # what a use is on that series
    message: str  # what happens, in Odoo's terms
    hint: str  # what to write instead
    source: str  # the Odoo file this was confirmed in


API_CHANGES: tuple[ApiChange, ...] = (
    ApiChange(
        id="removed-attrs",
        since="17.0",
        kind="xml-attribute",
        old="attrs",
        new="invisible / readonly / required / column_invisible expressions",
        severity="error",
        message="The 'attrs' attribute was removed in Odoo 17.0; the view no longer loads.",
        hint="Use the domain-free attributes: invisible=\"state != 'draft'\", readonly=..., required=...",
        source='odoo/addons/base/models/ir_ui_view.py (17.0: \'Since 17.0, the "attrs" and "states" '
        "attributes are no longer used.')",
    ),
    ApiChange(
        id="removed-states",
        since="17.0",
        kind="xml-attribute",
        old="states",
        new="invisible",
        severity="error",
        message="The 'states' attribute was removed in Odoo 17.0.",
        hint="Replace states=\"a,b\" with invisible=\"state not in ('a', 'b')\".",
        source='odoo/addons/base/models/ir_ui_view.py (17.0: \'Since 17.0, the "attrs" and "states" '
        "attributes are no longer used.')",
    ),
    ApiChange(
        id="removed-name-get",
        since="17.0",
        kind="python-method",
        old="name_get",
        new="_compute_display_name",
        severity="error",
        message="name_get() is no longer called since Odoo 17.0; the display name ignores it.",
        hint="Override _compute_display_name() (with @api.depends) instead.",
        source="odoo/models.py (17.0: display_name is computed by _compute_display_name, name_get is gone)",
    ),
    ApiChange(
        id="removed-tree",
        since="18.0",
        kind="xml-element",
        old="tree",
        new="list",
        severity="error",
        message="<tree> views are called <list> since Odoo 18.0.",
        hint="Rename the <tree> element to <list>.",
        source="odoo/upgrade_code/17.5-01-tree-to-list.py",
    ),
    ApiChange(
        id="removed-view-mode-tree",
        since="18.0",
        kind="view-mode",
        old="tree",
        new="list",
        severity="error",
        message="view_mode 'tree' is called 'list' since Odoo 18.0.",
        hint="Write 'list' instead of 'tree' in view_mode.",
        source="odoo/upgrade_code/17.5-01-tree-to-list.py",
    ),
)
