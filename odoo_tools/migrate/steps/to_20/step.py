"""The step into 20.0: no 20.0 source could be read here as a whole, so these are the rewrites of
its own upgrade_code scripts (19.2-* to 20.0-*) the registry holds; with the source they run
first."""

from __future__ import annotations

from odoo_tools.migrate.steps.rules import StepRules
from odoo_tools.migrate.steps.to_20.python import RULES_20
from odoo_tools.migrate.steps.to_20.xml_views import fix_base64_files, fix_date_filter_ranges, fix_t_esc
from odoo_tools.series import Series

STEP = StepRules(Series(20), xml=(fix_date_filter_ranges, fix_base64_files, fix_t_esc), python=RULES_20)
