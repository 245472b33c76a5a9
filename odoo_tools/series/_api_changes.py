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
# defines (``def old``); python-call: in Python code, ``a.b`` the end of an attribute chain or an
# import, ``name`` an attribute (``x.name``), ``name=`` a keyword argument (a text with a space
# describes a change no scan finds);
# route-argument: a keyword of ``@http.route``; model-attribute: a class attribute of a model;
# xml-data: a ``<field>`` attribute value in data files; qweb-directive: a ``t-*`` attribute of a
# template (views, templates, reports); icon-class: an icon class (``class="fa fa-user"``,
# ``icon="fa-user"``) in XML data; model: records of a model (XML records, CSV files named after it).
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
    "model",
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
    element: str = ""  # xml-attribute: the element it is found on ("" for any element of a view arch)


_MODIFIERS_SOURCE = (
    "odoo/addons/base/models/ir_ui_view.py (16.0: transfer_field_to_modifiers, transfer_node_to_modifiers, "
    "simplify_modifiers, transfer_modifiers_to_node; 17.0: none of them)"
)

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
        # The module still installs and runs: the override is only ignored (17.0 keeps a deprecated
        # name_get that reads display_name; 18.0 has none, and nothing calls the override).
        severity="warning",
        message="name_get() is no longer called since Odoo 17.0; the display name ignores this override.",
        hint="Override _compute_display_name() (with @api.depends) instead.",
        source="odoo/models.py (17.0: display_name is computed by _compute_display_name, name_get is gone)",
    ),
    ApiChange(
        id="removed-concurrency-check-field",
        since="17.0",
        kind="python-call",
        old="CONCURRENCY_CHECK_FIELD",
        new="'__last_update'",
        severity="error",
        message="BaseModel.CONCURRENCY_CHECK_FIELD was removed in Odoo 17.0 (with the __last_update "
        "pseudo-field): reading it is an AttributeError, at import when a module does it at load.",
        hint="Write the name it held, '__last_update' (a field name no 17.0 model has any more).",
        source="odoo/models.py (16.0: CONCURRENCY_CHECK_FIELD = '__last_update'; 17.0: neither)",
    ),
    ApiChange(
        id="removed-patch-method",
        since="17.0",
        kind="python-call",
        old="_patch_method",
        new="",
        severity="error",
        message="BaseModel._patch_method() was removed in Odoo 17.0 (AttributeError when called).",
        hint="Override the method in a model class (_inherit, or _inherit = 'base' for every model) and "
        "call super() there instead of patching it at runtime.",
        source="odoo/models.py (16.0: _patch_method/_revert_method; 17.0: neither)",
    ),
    ApiChange(
        id="renamed-name-search-args",
        since="17.0",
        kind="python-method",
        # "method parameter": a parameter renamed, found by the migration's signature comparison
        old="_name_search args",
        new="domain",
        severity="error",
        message="_name_search()'s args parameter is domain in Odoo 17.0 (name_get_uid is gone, order "
        "is new): Odoo passes domain= and order=, which a 16.0 signature refuses.",
        hint="Take (name, domain=None, operator='ilike', limit=None, order=None) and pass them on.",
        source="odoo/models.py (16.0: _name_search(name, args, operator, limit, name_get_uid); "
        "17.0: _name_search(name, domain, operator, limit, order))",
    ),
    ApiChange(
        id="changed-onchange-spec",
        since="17.0",
        kind="python-call",
        # a description, not a scan: _onchange_spec() is still there, only onchange() changed
        old="onchange() _onchange_spec",
        new="_get_fields_spec",
        severity="error",
        message="onchange()'s third parameter is the nested fields_spec of _get_fields_spec() in Odoo "
        "17.0; 16.0's flat _onchange_spec() fails there ('Invalid field ... on model ...').",
        hint="Pass model._get_fields_spec() to onchange().",
        source="addons/web/models/models.py (17.0: onchange(values, field_names, fields_spec)); "
        "odoo/models.py (16.0: onchange(values, field_name, field_onchange))",
    ),
    ApiChange(
        id="removed-revert-method",
        since="17.0",
        kind="python-call",
        old="_revert_method",
        new="",
        severity="error",
        message="BaseModel._revert_method() was removed in Odoo 17.0 (AttributeError when called).",
        hint="Drop it with the _patch_method() it undid: an override in a model class needs no revert.",
        source="odoo/models.py (16.0: _patch_method/_revert_method; 17.0: neither)",
    ),
    # 17.0 dropped the JSON 'modifiers' attribute of view nodes and the functions of ir_ui_view
    # that made it: the 17.0 client reads invisible/readonly/required/column_invisible from the
    # node's own attributes, as Python expressions
    ApiChange(
        id="removed-view-modifiers",
        since="17.0",
        kind="python-call",
        old="a view node's modifiers attribute",
        new="invisible / readonly / required / column_invisible attributes",
        severity="warning",
        message="Odoo 17.0 has no 'modifiers' view attribute: the client ignores one written into an "
        "arch (the node loses its invisible/readonly/required) and an arch holds none to read.",
        hint="Set each condition as the node's own attribute, a Python expression: "
        "node.set('readonly', \"state != 'draft'\") for 16.0's {'readonly': [('state', '!=', 'draft')]}; "
        "read node.get('readonly') instead of modifiers.",
        source="odoo/addons/base/models/ir_ui_view.py (16.0: transfer_modifiers_to_node writes "
        "node.set('modifiers', json.dumps(...)); 17.0: no modifiers)",
    ),
    ApiChange(
        id="removed-transfer-node-to-modifiers",
        since="17.0",
        kind="python-call",
        old="odoo.addons.base.models.ir_ui_view.transfer_node_to_modifiers",
        new="",
        severity="error",
        message="odoo.addons.base.models.ir_ui_view.transfer_node_to_modifiers was removed in Odoo 17.0 "
        "with the 'modifiers' view attribute: importing it fails the install.",
        hint="Drop it with the transfer_modifiers_to_node() that wrote its result back: 17.0 reads "
        "invisible/readonly/required from the node's own attributes.",
        source=_MODIFIERS_SOURCE,
    ),
    ApiChange(
        id="removed-transfer-modifiers-to-node",
        since="17.0",
        kind="python-call",
        old="odoo.addons.base.models.ir_ui_view.transfer_modifiers_to_node",
        new="",
        severity="error",
        message="odoo.addons.base.models.ir_ui_view.transfer_modifiers_to_node was removed in Odoo 17.0 "
        "with the 'modifiers' view attribute: importing it fails the install.",
        hint="Set the node's invisible/readonly/required attributes (Python expressions) instead.",
        source=_MODIFIERS_SOURCE,
    ),
    ApiChange(
        id="removed-transfer-field-to-modifiers",
        since="17.0",
        kind="python-call",
        old="odoo.addons.base.models.ir_ui_view.transfer_field_to_modifiers",
        new="",
        severity="error",
        message="odoo.addons.base.models.ir_ui_view.transfer_field_to_modifiers was removed in Odoo 17.0 "
        "with the 'modifiers' view attribute: importing it fails the install.",
        hint="Set the node's readonly/required attributes (Python expressions) from the field instead.",
        source=_MODIFIERS_SOURCE,
    ),
    ApiChange(
        id="removed-simplify-modifiers",
        since="17.0",
        kind="python-call",
        old="odoo.addons.base.models.ir_ui_view.simplify_modifiers",
        new="",
        severity="error",
        message="odoo.addons.base.models.ir_ui_view.simplify_modifiers was removed in Odoo 17.0 "
        "with the 'modifiers' view attribute: importing it fails the install.",
        hint="Drop it: 17.0 has no modifiers to simplify.",
        source=_MODIFIERS_SOURCE,
    ),
    ApiChange(
        id="renamed-qty-done",
        since="17.0",
        kind="python-call",
        # a description, not a scan: the model of a use is not known to the checks
        old="stock.move.line qty_done",
        new="quantity",
        severity="error",
        message="stock.move.line's qty_done is quantity in Odoo 17.0 (which is also what was reserved "
        "before; picked marks a line as done).",
        hint="Write quantity, and set picked=True where the line must count as done.",
        source="addons/stock/models/stock_move_line.py (16.0: qty_done; 17.0: quantity, picked)",
    ),
    ApiChange(
        id="renamed-quantity-done",
        since="17.0",
        kind="python-call",
        old="stock.move quantity_done",
        new="quantity",
        severity="error",
        message="stock.move's quantity_done is quantity in Odoo 17.0 (picked marks a move as done).",
        hint="Write quantity, and set picked=True where the move must count as done.",
        source="addons/stock/models/stock_move.py (16.0: quantity_done; 17.0: quantity, picked)",
    ),
    ApiChange(
        id="renamed-move-line-nosuggest-ids",
        since="17.0",
        kind="python-call",
        # stock.picking had a field of that name too, with the same meaning and the same successor
        old="stock.move,stock.picking move_line_nosuggest_ids",
        new="move_line_ids",
        severity="error",
        message="stock.move's and stock.picking's move_line_nosuggest_ids (their lines but the reserved, "
        "not yet done ones) are gone in Odoo 17.0: a reserved quantity is the line's quantity there, so "
        "move_line_ids holds every line (a view or @depends naming the old field fails the install).",
        hint="Write move_line_ids.",
        source="addons/stock/models/stock_move.py, stock_picking.py (16.0: move_line_nosuggest_ids with a "
        "domain on reserved_qty and qty_done; 17.0: only move_line_ids)",
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
        old="group_operator=",
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
        old="unaccent=",
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
    # Odoo 20.0: what its upgrade_code scripts 19.2-* to 20.0-* rewrite, each graded by what 20.0 does.
    *(
        ApiChange(
            id=f"removed-filter-{attribute.replace('_', '-')}",
            since="20.0",
            kind="xml-attribute",
            element="filter",
            old=attribute,
            new="",
            severity="error",
            message=f"The {attribute} attribute of date filters was removed in Odoo 20.0: the search view "
            "no longer validates (the RNG rejects it), so the install fails.",
            hint="Remove start_month/end_month/start_year/end_year from the <filter date=...>.",
            source="odoo/upgrade_code/20.0-00-search-date-filters.py ('They are not parsed anymore, nor "
            "accepted by the RNG')",
        )
        for attribute in ("start_month", "end_month", "start_year", "end_year")
    ),
    ApiChange(
        id="renamed-route-readonly",
        since="20.0",
        kind="route-argument",
        old="readonly",
        new="replica",
        severity="warning",
        message="@route(readonly=...) is called replica= since Odoo 20.0; readonly= is no longer what "
        "sends the request to a read-only replica.",
        hint="Write @http.route(..., replica=True).",
        source="odoo/upgrade_code/20.0-00-route-replica.py",
    ),
    ApiChange(
        id="removed-registry-clear-cache",
        since="20.0",
        kind="python-call",
        old="registry.clear_cache",
        new="transaction.invalidate_ormcache",
        severity="error",
        message="Registry.clear_cache() is gone in Odoo 20.0: the line raises AttributeError when it runs.",
        hint="Call self.env.transaction.invalidate_ormcache() (with the cache name, e.g. 'stable').",
        source="odoo/upgrade_code/19.4-00-ormcache-on-transaction.py; odoo/orm/registry.py has no "
        "clear_cache (Vauxoo/odoo mirror, commit adfe109)",
    ),
    ApiChange(
        id="tuple-rec-names-search",
        since="20.0",
        kind="model-attribute",
        old="_rec_names_search",
        new="a tuple",
        severity="info",
        message="Odoo 20.0 writes _rec_names_search as a tuple; a list still works.",
        hint="_rec_names_search = ('name', 'code')",
        source="odoo/upgrade_code/19.5-00-tuple-rec_names_search.py",
    ),
    ApiChange(
        id="renamed-type-base64",
        since="20.0",
        kind="xml-data",
        old="base64",
        new="bytes",
        severity="warning",
        message='type="base64" on a <field file=...> is deprecated since Odoo 20.0 (it still loads, '
        "with a DeprecationWarning).",
        hint='Write type="bytes" with file=.',
        source="odoo/upgrade_code/19.3-00-base64-in-xml.py; odoo/tools/convert.py ('Since 20.0, use "
        "type=bytes instead of type=base64', Vauxoo/odoo mirror, commit ce495e0)",
    ),
    ApiChange(
        id="replaced-t-esc",
        since="20.0",
        kind="qweb-directive",
        old="t-esc",
        new="t-out",
        severity="warning",
        message="t-esc is replaced by t-out in Odoo 20.0 (its own templates were rewritten for OWL 3).",
        hint='Write t-out="..." (it escapes like t-esc did).',
        source="odoo/upgrade_code/19.2-00-t-esc.py",
    ),
    ApiChange(
        id="replaced-fontawesome-icon",
        since="20.0",
        kind="icon-class",
        old="fa",
        new="oi + data-icon (Material Symbols)",
        severity="warning",
        message="FontAwesome icons are replaced by Material Symbols in Odoo 20.0 (the FontAwesome "
        "stylesheet is gone): the icon is not drawn.",
        hint='Write <i class="oi" data-icon="person"/> (icon="person" on buttons); Odoo\'s '
        "upgrade_code script 19.5-00-material-symbols-icons maps the names.",
        source="odoo/upgrade_code/19.5-00-material-symbols-icons.py",
    ),
    ApiChange(
        id="replaced-account-group",
        since="20.0",
        kind="model",
        old="account.group",
        new="account.account parent accounts (parent_id)",
        severity="warning",
        message="Account groups become parent accounts in Odoo 20.0: chart templates list them as "
        "account.account rows with parent_id.",
        hint="Move the groups into the account.account template as inactive parent accounts (Odoo's "
        "upgrade_code script 19.3-00-account-groups does it).",
        source="odoo/upgrade_code/19.3-00-account-groups.py",
    ),
    # 18.0 -> 19.0, read in the 19.0 source
    ApiChange(
        id="replaced-sql-constraints",
        since="19.0",
        kind="model-attribute",
        old="_sql_constraints",
        new="models.Constraint",
        severity="warning",
        message='Odoo 19.0 ignores _sql_constraints ("no longer supported" in the log): the constraints are '
        "not created.",
        hint="Declare each one as a class attribute: _name_uniq = models.Constraint('UNIQUE(name)', "
        "'message').",
        source="odoo/orm/model_classes.py (19.0: \"Model attribute '_sql_constraints' is no longer "
        'supported")',
    ),
    ApiChange(
        id="deprecated-env-shortcuts",
        since="19.0",
        kind="python-call",
        old="_cr / _uid / _context",
        new="env.cr / env.uid / env.context",
        severity="info",
        message="record._cr, _uid and _context are deprecated since Odoo 19.0.",
        hint="Write self.env.cr, self.env.uid, self.env.context.",
        source="odoo/orm/models.py (19.0: @api.deprecated 'Deprecated since 19.0, use self.env.cr directly')",
    ),
    ApiChange(
        id="renamed-groups-id",
        since="19.0",
        kind="xml-data",
        old="groups_id",
        new="group_ids",
        severity="error",
        message="groups_id is group_ids in Odoo 19.0 on res.users, ir.ui.menu, ir.ui.view and the window, "
        "server and report actions.",
        hint="Write group_ids.",
        source="odoo/addons/base/models/res_users.py, ir_ui_menu.py, ir_ui_view.py, ir_actions.py, "
        "ir_actions_report.py (18.0 groups_id, 19.0 group_ids)",
    ),
    ApiChange(
        id="renamed-groups-users",
        since="19.0",
        kind="xml-data",
        # a description, not a scan: other models have a users field of their own
        old="res.groups users",
        new="user_ids",
        severity="error",
        message="res.groups' users field is user_ids in Odoo 19.0 (the same res_groups_users_rel table).",
        hint="Write user_ids (in group records, in values written to a group, in field paths).",
        source="odoo/addons/base/models/res_users.py (18.0: users = fields.Many2many('res.users', "
        "'res_groups_users_rel', ...)); res_groups.py (19.0: user_ids on the same table)",
    ),
    ApiChange(
        id="removed-target-inline",
        since="19.0",
        kind="xml-data",
        # a description, not a scan: target is a field of several action models
        old="ir.actions.act_window target inline",
        new="",
        severity="error",
        message="A window action's target 'inline' is gone in Odoo 19.0: the record fails to load "
        "(\"Wrong value for ir.actions.act_window.target: 'inline'\").",
        hint='Remove <field name="target">inline</field> (Odoo\'s own settings actions take the default).',
        source="odoo/addons/base/models/ir_actions.py (18.0 target: ... ('inline', 'Inline Edit') ...; "
        "19.0: current, new, fullscreen, main)",
    ),
    ApiChange(
        id="removed-search-group-attributes",
        since="19.0",
        kind="xml-attribute",
        # a description, not a scan: a form's <group string="..."> is still right in 19.0
        old="search view <group expand string>",
        new="<group>",
        severity="error",
        message="Odoo 19.0's search view schema has no expand nor string on <group>: the view is refused "
        '("Invalid attribute expand for element group").',
        hint='Write the search view\'s <group expand="0" string="Group By"> as <group>.',
        source="odoo/addons/base/rng/common.rng (18.0 group: expand, string; 19.0: neither)",
    ),
    ApiChange(
        id="changed-group-expand",
        since="18.0",
        kind="python-method",
        old="group_expand(records, domain, order)",
        new="group_expand(records, domain)",
        severity="error",
        message="Odoo 18.0 calls a field's group_expand method with (records, domain), without order "
        "(TypeError when grouping by that field).",
        hint="Drop the order parameter, or give it a default: "
        "def _read_group_x(self, records, domain, order=None).",
        source="odoo/models.py (18.0: group_expand(self, groups, domain))",
    ),
    ApiChange(
        id="strict-attribute-spec",
        since="18.0",
        kind="xml-attribute",
        old="<attribute> with other keys than name/add/remove/separator",
        new="",
        severity="error",
        message="Odoo 18.0 refuses any attribute of an <attribute> spec but name, add, remove and separator "
        '("Invalid attributes ... in element <attribute>").',
        hint='Remove the other attributes (e.g. translation="off").',
        source="odoo/tools/template_inheritance.py (18.0)",
    ),
    ApiChange(
        id="changed-hook-signature",
        since="17.0",
        kind="python-method",
        old="hook(cr, registry)",
        new="hook(env)",
        severity="error",
        message="Odoo 17.0 calls the manifest's pre_init, post_init and uninstall hooks with env "
        "(TypeError at install with (cr, registry)).",
        hint="def post_init_hook(env): and read env.cr / env.registry.",
        source="odoo/modules/loading.py (17.0: getattr(py_module, post_init)(env))",
    ),
)
