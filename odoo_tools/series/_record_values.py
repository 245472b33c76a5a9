"""Names a data record may set that are no field of its model, per series: the model's own
``create``/``write`` take them and turn them into fields.

``ir.property`` (16.0 and 17.0; gone in 18.0): ``_update_values``, called by its ``create`` and
``write``, pops ``value`` and stores it in the ``value_*`` field of the property's type. Read in
odoo/addons/base/models/ir_property.py of the 16.0 and 17.0 labs; OCA's base_report_to_printer 16.0
sets it in a ``<record model="ir.property">``.
"""

from __future__ import annotations

from odoo_tools.series._names import is_before

_IR_PROPERTY = {"ir.property": frozenset({"value"})}


def record_values(series: str | None, model: str) -> frozenset[str]:
    """What ``model``'s create/write accept besides its fields on ``series`` (an unknown series:
    every series' names, so that no name is wrongly claimed unknown)."""
    if series is None or is_before(series, "18.0"):
        return _IR_PROPERTY.get(model, frozenset())
    return frozenset()
