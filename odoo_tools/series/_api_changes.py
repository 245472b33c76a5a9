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
    # 17.0 -> 18.0, read in the 18.0 source; odoo_tools.migrate rewrites each of them (same ids)
    ApiChange(
        id="removed-user-has-groups",
        since="18.0",
        kind="python-call",
        old="user_has_groups",
        new="env.user.has_group / env.user.has_groups",
        severity="error",
        message="BaseModel.user_has_groups() was removed in Odoo 18.0 (AttributeError when called).",
        hint="Call self.env.user.has_group('mod.group') (one group) or self.env.user.has_groups('a,!b').",
        source="odoo/addons/base/models/res_users.py (18.0: has_groups, has_group; models.py: no "
        "user_has_groups)",
    ),
    ApiChange(
        id="removed-ustr",
        since="18.0",
        kind="python-call",
        old="odoo.tools.ustr",
        new="str",
        severity="error",
        message="odoo.tools.ustr was removed in Odoo 18.0: importing it fails the install.",
        hint="Use str(value).",
        source="odoo/tools/misc.py (18.0: no ustr)",
    ),
    ApiChange(
        id="renamed-group-operator",
        since="18.0",
        kind="python-call",
        old="group_operator",
        new="aggregator",
        severity="warning",
        message="The field parameter group_operator is deprecated since Odoo 18.0.",
        hint="Write aggregator=... instead of group_operator=....",
        source="odoo/fields.py (18.0: \"Since Odoo 18, 'group_operator' is deprecated, use 'aggregator'\")",
    ),
    ApiChange(
        id="removed-unaccent",
        since="18.0",
        kind="python-call",
        old="unaccent",
        new="",
        severity="warning",
        message="unaccent= is no longer a field parameter in Odoo 18.0 (logged as an unknown parameter).",
        hint="Remove unaccent=...; searches follow the database's unaccent setting.",
        source="odoo/fields.py (18.0: no unaccent attribute)",
    ),
    ApiChange(
        id="deprecated-check-recursion",
        since="18.0",
        kind="python-call",
        old="_check_recursion",
        new="_has_cycle",
        severity="warning",
        message="_check_recursion() is deprecated since Odoo 18.0.",
        hint="Write `if self._has_cycle(): raise ...` (the opposite truth value).",
        source="odoo/models.py (18.0: 'Since 18.0, one must use not _has_cycle() instead')",
    ),
    ApiChange(
        id="removed-name-search",
        since="18.0",
        kind="python-method",
        old="_name_search",
        new="_search_display_name",
        severity="warning",
        message="_name_search() is no longer called in Odoo 18.0: the override has no effect.",
        hint="Override _search_display_name(self, operator, value) and return a domain.",
        source="odoo/models.py (18.0: name_search uses _search_display_name; no _name_search)",
    ),
    ApiChange(
        id="removed-product-type-product",
        since="18.0",
        kind="xml-data",
        old="type product",
        new="type consu + is_storable",
        severity="error",
        message="Product type 'product' does not exist in Odoo 18.0: storable goods are type 'consu' "
        "with is_storable.",
        hint="Write type='consu' and is_storable=True (is_storable comes with stock).",
        source="addons/product/models/product_template.py, addons/stock/models/product.py (18.0)",
    ),
    ApiChange(
        id="removed-detailed-type",
        since="18.0",
        kind="xml-data",
        old="detailed_type",
        new="type",
        severity="error",
        message="The product field detailed_type was removed in Odoo 18.0.",
        hint="Write type (and is_storable for storable goods).",
        source="addons/product/models/product_template.py (18.0: no detailed_type)",
    ),
    ApiChange(
        id="removed-ir-property",
        since="18.0",
        kind="python-call",
        old="ir.property",
        new="",
        severity="error",
        message="The model ir.property was removed in Odoo 18.0 (company-dependent fields are JSON columns).",
        hint="Read and write the company-dependent field itself (with_company), or use ir.default.",
        source="odoo/addons/base/models (18.0: no ir_property.py)",
    ),
    ApiChange(
        id="replaced-oe-chatter",
        since="18.0",
        kind="xml-element",
        old="div.oe_chatter",
        new="chatter",
        severity="warning",
        message="Odoo 18.0 renders a chatter only for a <chatter/> element.",
        hint='Replace <div class="oe_chatter">...</div> with <chatter/>.',
        source="addons/mail/static/src/chatter/web/form_compiler.js (18.0: selector 'chatter')",
    ),
    ApiChange(
        id="removed-chart-template-ref",
        since="18.0",
        kind="python-call",
        old="chart_template_ref",
        new="",
        severity="error",
        message="AccountTestInvoicingCommon.setUpClass() takes no chart_template_ref in Odoo 18.0 "
        "(TypeError: every test of the class errors).",
        hint="Call super().setUpClass(); for a given chart decorate the tests with "
        "@AccountTestInvoicingCommon.setup_chart_template('<chart>').",
        source="addons/account/tests/common.py (18.0: def setUpClass(cls), setup_chart_template)",
    ),
    ApiChange(
        id="removed-cron-numbercall",
        since="18.0",
        kind="xml-data",
        old="ir.cron numbercall / doall",
        new="",
        severity="error",
        message="ir.cron has no numbercall or doall field in Odoo 18.0 (the data file fails to load).",
        hint="Remove them: a job repeats until it is deactivated.",
        source="odoo/addons/base/models/ir_cron.py (18.0: no numbercall, no doall)",
    ),
    ApiChange(
        id="renamed-account-company-id",
        since="18.0",
        kind="python-call",
        old="account.account company_id",
        new="company_ids",
        severity="error",
        message="account.account has company_ids (several companies) instead of company_id in Odoo 18.0.",
        hint="Write 'company_ids': [Command.set([company.id])] when creating an account.",
        source="addons/account/models/account_account.py (18.0: company_ids = fields.Many2many)",
    ),
    ApiChange(
        id="removed-bus-sendmany",
        since="18.0",
        kind="python-call",
        old="_sendmany",
        new="_sendone",
        severity="error",
        message="bus.bus._sendmany() was removed in Odoo 18.0 (AttributeError).",
        hint="Send each (target, notification_type, message) with bus._sendone(...).",
        source="addons/bus/models/bus.py (18.0: _sendone only)",
    ),
    ApiChange(
        id="renamed-find-global-route",
        since="18.0",
        kind="python-call",
        old="_find_global_route",
        new="_find_or_create_global_route",
        severity="error",
        message="stock.warehouse._find_global_route() is _find_or_create_global_route() in Odoo 18.0, "
        "and raise_if_not_found defaults to False there.",
        hint="Call _find_or_create_global_route(xml_id, name, raise_if_not_found=True).",
        source="addons/stock/models/stock_warehouse.py (18.0: _find_or_create_global_route)",
    ),
    ApiChange(
        id="removed-name-get-call",
        since="18.0",
        kind="python-call",
        old="name_get",
        new="display_name",
        severity="error",
        message="name_get() no longer exists in Odoo 18.0 (AttributeError when called).",
        hint="Read record.display_name, or build [(r.id, r.display_name) for r in records].",
        source="odoo/models.py (18.0: no name_get)",
    ),
)
