"""The step into 18.0: its rules in the order they run."""

from __future__ import annotations

from odoo_tools.migrate.steps.rules import StepRules
from odoo_tools.migrate.steps.to_18.python import RULES_18
from odoo_tools.migrate.steps.to_18.xml_views import (
    fix_attribute_spec,
    fix_chatter,
    fix_cron_fields,
    fix_product_type,
    fix_tree,
    fix_view_mode,
)
from odoo_tools.series import Series

STEP = StepRules(
    Series(18),
    xml=(fix_tree, fix_view_mode, fix_chatter, fix_product_type, fix_cron_fields, fix_attribute_spec),
    python=RULES_18,
)
