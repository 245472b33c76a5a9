"""The rule table of each series step: what ``migrate`` rewrites when a module moves from
``target - 1`` to ``target``. Each step is a folder (``to_17/`` ...) whose ``step.py`` says its
rules; a new step is a new folder and one line here."""

from __future__ import annotations

from odoo_tools.migrate.steps.rules import StepRules
from odoo_tools.migrate.steps.to_17.step import STEP as TO_17
from odoo_tools.migrate.steps.to_18.step import STEP as TO_18
from odoo_tools.migrate.steps.to_19.step import STEP as TO_19
from odoo_tools.migrate.steps.to_20.step import STEP as TO_20
from odoo_tools.series import Series

STEPS: dict[Series, StepRules] = {step.target: step for step in (TO_17, TO_18, TO_19, TO_20)}
# A step to a series we know no rules for runs only the target source's own upgrade_code scripts
# (when the source is given) and the version bump.


def rules_for(target: Series) -> StepRules:
    return STEPS.get(target, StepRules(target, xml=(), python=()))
