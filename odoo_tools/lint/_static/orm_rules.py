"""What the ORM-aware checks know of every model (its magic fields, BaseModel's methods).

What each check claims (its severity, what breaks) is its entry in the code catalogue
(``odoo_tools/catalogue/codes/orm.toml``): ``odoo_tools.catalogue.entry(code)``.
"""

from __future__ import annotations

from odoo_tools.series import SeriesFacts

# Fields every model has (BaseModel's magic fields); ``__last_update`` went away in 17.0.
MAGIC_FIELDS = frozenset({"id", "display_name", "create_uid", "create_date", "write_uid", "write_date"})
MAGIC_FIELDS_BEFORE_17 = MAGIC_FIELDS | {"__last_update"}
# BaseModel methods a field may name without an Odoo source to read them from.
BASE_METHODS = frozenset({"_compute_display_name", "_search_display_name", "_compute_field_value"})


def magic_fields(facts: SeriesFacts | None) -> frozenset[str]:
    """The magic fields on a series (an unknown one: also those of older series)."""
    return MAGIC_FIELDS if facts is not None and not facts.last_update_field else MAGIC_FIELDS_BEFORE_17
