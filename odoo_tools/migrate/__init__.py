"""Moving Odoo modules one series up, and proving the result on the target series' real Odoo.

The face of the package: callers import from here; the ``_modules`` inside are private.
``migrate`` plans (series steps, dependency order), rewrites in memory (the target source's own
``upgrade_code`` scripts first, then one rule table per step: libcst for Python, offset edits for
XML), and writes or commits only when asked; ``prove`` installs and tests one module through the
runner. Nothing here runs the module's code.

Names are imported on first use (PEP 562): the MCP server registers ``migrate_module`` with the
``MigrationReport`` model at start without loading libcst and the rule tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.lazy_names import first_use_getattr

if TYPE_CHECKING:
    from odoo_tools.migrate._migrate import migrate, migrate_module
    from odoo_tools.migrate._models import MigrationReport, ModuleMigration, Proof, StepOutcome
    from odoo_tools.migrate._plan import PlannedModule, module_folders, parse_series, plan_migration
    from odoo_tools.migrate._proof import first_failure, held_back, proof_of, prove
    from odoo_tools.migrate._proof_addons import ProofAddons, proof_addons
    from odoo_tools.migrate._steps import STEPS

_WHERE = {
    "MigrationReport": "odoo_tools.migrate._models",
    "ModuleMigration": "odoo_tools.migrate._models",
    "PlannedModule": "odoo_tools.migrate._plan",
    "Proof": "odoo_tools.migrate._models",
    "ProofAddons": "odoo_tools.migrate._proof_addons",
    "STEPS": "odoo_tools.migrate._steps",
    "StepOutcome": "odoo_tools.migrate._models",
    "first_failure": "odoo_tools.migrate._proof",
    "held_back": "odoo_tools.migrate._proof",
    "migrate": "odoo_tools.migrate._migrate",
    "migrate_module": "odoo_tools.migrate._migrate",
    "module_folders": "odoo_tools.migrate._plan",
    "parse_series": "odoo_tools.migrate._plan",
    "plan_migration": "odoo_tools.migrate._plan",
    "proof_addons": "odoo_tools.migrate._proof_addons",
    "proof_of": "odoo_tools.migrate._proof",
    "prove": "odoo_tools.migrate._proof",
}

__all__ = [
    "STEPS",
    "MigrationReport",
    "ModuleMigration",
    "PlannedModule",
    "Proof",
    "ProofAddons",
    "StepOutcome",
    "first_failure",
    "held_back",
    "migrate",
    "migrate_module",
    "module_folders",
    "parse_series",
    "plan_migration",
    "proof_addons",
    "proof_of",
    "prove",
]


__getattr__ = first_use_getattr(globals(), _WHERE)
