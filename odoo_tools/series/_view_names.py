"""The names a view expression may use that are not fields of the view's model.

Odoo's web client evaluates ``invisible``/``readonly``/``required``/``column_invisible``/
``decoration-*`` and the right-hand sides of domains and contexts with these names bound; every
other free name must be a field of the model the node sees. Read in ``odoo/tools/view_validation.py``
(``IGNORED_IN_EXPRESSION``) of the 17.0, 18.0 and 19.0 labs: the same set on the three.
"""

from __future__ import annotations

VIEW_CONTEXT_NAMES = frozenset(
    {
        "True",
        "False",
        "None",
        "self",
        "uid",
        "context",
        "context_today",
        "allowed_company_ids",
        "current_company_id",
        "time",
        "datetime",
        "relativedelta",
        "current_date",
        "today",
        "now",
        "abs",
        "len",
        "bool",
        "float",
        "str",
        "unicode",
        "set",
    }
)
