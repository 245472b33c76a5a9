"""The step into 17.0: its rules in the order they run, and the core fields it renamed that the
rules rename wherever a module uses them (the registry's change ids)."""

from __future__ import annotations

from odoo_tools.migrate.passes.renamed_fields import FieldRenames, renamed_fields_fix, renamed_fields_rule
from odoo_tools.migrate.steps.rules import StepRules
from odoo_tools.migrate.steps.to_17.python import RULES_17
from odoo_tools.migrate.steps.to_17.xml_views import (
    fix_attribute_overrides,
    fix_attrs,
    fix_moved_modifiers,
    fix_states,
)
from odoo_tools.series import Series

# qty_done and quantity_done were the DONE quantity: 17.0's quantity is also what is reserved,
# and picked says it is done (the registry entries' hint).
FIELD_RENAMES = FieldRenames(
    ids=("renamed-qty-done", "renamed-quantity-done", "renamed-move-line-nosuggest-ids"),
    flag="picked",
    flagged=frozenset({"renamed-qty-done", "renamed-quantity-done"}),
)

STEP = StepRules(
    Series(17),
    xml=(
        fix_attrs,
        fix_states,
        fix_attribute_overrides,
        fix_moved_modifiers,
        renamed_fields_fix(FIELD_RENAMES),
    ),
    python=(*RULES_17, renamed_fields_rule(FIELD_RENAMES)),
)
