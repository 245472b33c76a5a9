"""What the ORM-aware checks know of every model without an Odoo source: BaseModel's methods that a
field may name. (Its magic fields are a series fact: ``odoo_tools.series.magic_fields``.)

What each check claims (its severity, what breaks) is its entry in the code catalogue
(``odoo_tools/catalogue/codes/orm.toml``): ``odoo_tools.catalogue.entry(code)``.
"""

from __future__ import annotations

# BaseModel methods a field may name without an Odoo source to read them from.
BASE_METHODS = frozenset({"_compute_display_name", "_search_display_name", "_compute_field_value"})
