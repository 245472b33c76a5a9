"""The rule table of each series step: what ``migrate`` rewrites when a module moves from
``target - 1`` to ``target``. A rule's id is the id of the change in the series registry
(``odoo_tools.series.API_CHANGES``: "removed-attrs", "removed-tree", ...) that the static checks
report, so one entry both finds and fixes a construct; the few rules whose change the registry
does not hold yet (19.0, read in no source here) use ids of the same form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.python_rules import PythonRule
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.migrate.passes.renamed_fields import RenamedFields17, fix_renamed_fields_17
from odoo_tools.migrate.steps.to_17.python import RULES_17
from odoo_tools.migrate.steps.to_17.xml_views import (
    fix_attribute_overrides,
    fix_attrs,
    fix_moved_modifiers,
    fix_states,
)
from odoo_tools.migrate.steps.to_18.python import RULES_18
from odoo_tools.migrate.steps.to_18.xml_views import (
    fix_attribute_spec,
    fix_chatter,
    fix_cron_fields,
    fix_product_type,
    fix_tree,
    fix_view_mode,
)
from odoo_tools.migrate.steps.to_19.python_groups import RULES_19
from odoo_tools.migrate.steps.to_19.xml_views import (
    fix_groups_id,
    fix_search_groups,
    fix_target_inline,
    fix_user_groups_expressions,
)
from odoo_tools.migrate.steps.to_20.python import RULES_20
from odoo_tools.migrate.steps.to_20.xml_views import fix_base64_files, fix_date_filter_ranges, fix_t_esc

XmlFix = Callable[[XmlDocument, Site], list[Edit]]


@dataclass(frozen=True)
class StepRules:
    target: int
    xml: tuple[XmlFix, ...]
    python: tuple[type[PythonRule], ...]


STEPS: dict[int, StepRules] = {
    17: StepRules(
        17,
        xml=(fix_attrs, fix_states, fix_attribute_overrides, fix_moved_modifiers, fix_renamed_fields_17),
        python=(*RULES_17, RenamedFields17),
    ),
    18: StepRules(
        18,
        xml=(fix_tree, fix_view_mode, fix_chatter, fix_product_type, fix_cron_fields, fix_attribute_spec),
        python=RULES_18,
    ),
    19: StepRules(
        19,
        xml=(fix_groups_id, fix_user_groups_expressions, fix_search_groups, fix_target_inline),
        python=RULES_19,
    ),
    # 20.0: no 20.0 source could be read here as a whole, so these are the rewrites of its own
    # upgrade_code scripts (19.2-* to 20.0-*) the registry holds; with the source they run first.
    20: StepRules(20, xml=(fix_date_filter_ranges, fix_base64_files, fix_t_esc), python=RULES_20),
}
# A step to a series we know no rules for runs only the target source's own upgrade_code scripts
# (when the source is given) and the version bump.


def rules_for(target: int) -> StepRules:
    return STEPS.get(target, StepRules(target, xml=(), python=()))
