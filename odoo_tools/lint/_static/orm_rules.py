"""What the ORM-aware checks claim, per rule: its severity and the series a real install confirmed.

An error means a real ``odoo-bin -i`` of the module fails; a rule whose mistake installs fine and
breaks later (a missing inverse method, a bad ``@api.onchange`` name that Odoo only logs) is a
warning. ``confirmed`` lists the series on which a real install showed the verdict (the judge
corpus under ``fixtures/orm_breakages/``); other series are assumed to behave alike.
These are per-series facts: they belong with the series registry once it exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from odoo_tools.findings import Severity
from odoo_tools.series import SeriesFacts


@dataclass(frozen=True)
class OrmRule:
    severity: Severity
    confirmed: tuple[str, ...]
    breaks: str  # what happens, in the finding's words


RULES: dict[str, OrmRule] = {
    "view-field-unknown": OrmRule("error", ("18.0",), "the view does not validate: the install fails"),
    "view-anchor-unknown": OrmRule("error", ("18.0",), "the view cannot be applied: the install fails"),
    "record-field-unknown": OrmRule("error", ("18.0",), "loading the record fails: the install fails"),
    "record-model-unknown": OrmRule("error", ("18.0",), "loading the record fails: the install fails"),
    "action-model-unknown": OrmRule("error", ("18.0",), "the action is refused: the install fails"),
    # Alone, an unknown comodel is a warning (Odoo 18 logs it and installs); see orm_python.
    "comodel-unknown": OrmRule("error", ("18.0",), "Odoo cannot resolve that path: the install fails"),
    "inverse-name-unknown": OrmRule("error", ("18.0",), "the install fails"),
    "related-path-unknown": OrmRule("error", ("18.0",), "the field setup fails: the install fails"),
    "depends-field-unknown": OrmRule("error", ("18.0",), "the registry setup fails: the install fails"),
    # Only for a stored field added to an existing model; else a warning (see orm_python).
    "compute-method-missing": OrmRule(
        "error", ("18.0",), "computing the existing records at install raises AttributeError"
    ),
    "inverse-method-missing": OrmRule("warning", ("18.0",), "writing the field raises AttributeError"),
    "search-method-missing": OrmRule("warning", ("18.0",), "searching on the field raises AttributeError"),
    "onchange-field-unknown": OrmRule("warning", ("18.0",), "Odoo only logs it; the onchange never runs"),
    "constrains-field-unknown": OrmRule("warning", ("18.0",), "Odoo only logs it; the check never runs"),
    "selection-add-without-selection": OrmRule("error", ("18.0",), "the field setup fails"),
    "rec-name-unknown": OrmRule("error", ("18.0",), "the model setup fails: the install fails"),
    "order-field-unknown": OrmRule("warning", ("18.0",), "every search without an order fails"),
    "inherit-unknown-model": OrmRule("error", ("18.0",), "the registry cannot be built"),
    "inherits-unknown-model": OrmRule("error", ("18.0",), "the registry cannot be built"),
    "env-model-unknown": OrmRule("warning", (), "self.env[...] raises KeyError when the line runs"),
}

# Fields every model has (BaseModel's magic fields); ``__last_update`` went away in 17.0.
MAGIC_FIELDS = frozenset({"id", "display_name", "create_uid", "create_date", "write_uid", "write_date"})
MAGIC_FIELDS_BEFORE_17 = MAGIC_FIELDS | {"__last_update"}
# BaseModel methods a field may name without an Odoo source to read them from.
BASE_METHODS = frozenset({"_compute_display_name", "_search_display_name", "_compute_field_value"})


def magic_fields(facts: SeriesFacts | None) -> frozenset[str]:
    """The magic fields on a series (an unknown one: also those of older series)."""
    return MAGIC_FIELDS if facts is not None and not facts.last_update_field else MAGIC_FIELDS_BEFORE_17
