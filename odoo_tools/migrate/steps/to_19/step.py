"""The step into 19.0: its rules in the order they run."""

from __future__ import annotations

from odoo_tools.migrate.steps.rules import StepRules
from odoo_tools.migrate.steps.to_19.python_groups import RULES_19
from odoo_tools.migrate.steps.to_19.xml_views import (
    fix_groups_id,
    fix_search_groups,
    fix_target_inline,
    fix_user_groups_expressions,
)
from odoo_tools.series import Series

STEP = StepRules(
    Series(19),
    xml=(fix_groups_id, fix_user_groups_expressions, fix_search_groups, fix_target_inline),
    python=RULES_19,
)
