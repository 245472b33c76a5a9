"""Moving Odoo modules one series up, and proving the result on the target series' real Odoo.

The face of the package: callers import from here; the ``_modules`` inside are private.
``migrate`` plans (series steps, dependency order), rewrites in memory (the target source's own
``upgrade_code`` scripts first, then one rule table per step: libcst for Python, offset edits for
XML), and writes or commits only when asked; ``prove`` installs and tests one module through the
runner. Nothing here runs the module's code.
"""

from odoo_tools.migrate._migrate import migrate, migrate_module
from odoo_tools.migrate._models import MigrationReport, ModuleMigration, Proof, StepOutcome
from odoo_tools.migrate._plan import PlannedModule, module_folders, parse_series, plan_migration
from odoo_tools.migrate._proof import first_failure, proof_of, prove
from odoo_tools.migrate._steps import STEPS

__all__ = [
    "STEPS",
    "MigrationReport",
    "ModuleMigration",
    "PlannedModule",
    "Proof",
    "StepOutcome",
    "first_failure",
    "migrate",
    "migrate_module",
    "module_folders",
    "parse_series",
    "plan_migration",
    "proof_of",
    "prove",
]
