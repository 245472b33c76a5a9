"""The fields Odoo's ``BaseModel`` gives every model (its magic fields), per series."""

from __future__ import annotations

from odoo_tools.series._facts import SeriesFacts

# ``__last_update`` went away in 17.0 (odoo/models.py; SeriesFacts.last_update_field).
MAGIC_FIELDS = frozenset({"id", "display_name", "create_uid", "create_date", "write_uid", "write_date"})
MAGIC_FIELDS_BEFORE_17 = MAGIC_FIELDS | {"__last_update"}


def magic_fields(facts: SeriesFacts | None) -> frozenset[str]:
    """The magic fields on a series (an unknown one: also those of older series)."""
    return MAGIC_FIELDS if facts is not None and not facts.last_update_field else MAGIC_FIELDS_BEFORE_17
