"""The names a view expression may use that are not fields of the view's model, per series.

Odoo's web client evaluates ``invisible``/``readonly``/``required``/``column_invisible``/
``decoration-*`` and the right-hand sides of domains and contexts with these names bound; every
other free name must be a field of the model the node sees. Read in ``odoo/tools/view_validation.py``
(``IGNORED_IN_EXPRESSION``) of the 17.0, 18.0 and 19.0 labs: the same set on the three. 17.0's
``NameManager.check`` also lets ``active_id``, ``active_ids`` and ``active_model`` through (a logged
deprecation); 18.0 refuses them (probed on the 18.0 lab: ``context="{'x': active_id}"`` fails).
"""

from __future__ import annotations

from odoo_tools.series._names import is_before

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

_ACTIVE_NAMES = frozenset({"active_id", "active_ids", "active_model"})


def view_context_names(series: str | None) -> frozenset[str]:
    """The names Odoo lets a view expression use besides the model's fields on ``series`` (an
    unknown series: the widest set, so that no name is wrongly claimed absent)."""
    if series is None or is_before(series, "18.0"):
        return VIEW_CONTEXT_NAMES | _ACTIVE_NAMES
    return VIEW_CONTEXT_NAMES
