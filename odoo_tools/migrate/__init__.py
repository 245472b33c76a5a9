"""Moving Odoo modules one series up, and proving the result on the target series' real Odoo.

The face of the package: callers import from here; what is inside is private: ``engine/`` (plan,
module files, edits, report, upgrade_code, commit, proof), ``steps/`` (one folder of rules per
target series), ``passes/`` (what two series' knowledge tells), and the runners ``_migrate`` (a
module through its steps) and ``_step`` (one step: the step's rules, then the passes).
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
    from odoo_tools.migrate.engine.models import MigrationReport, ModuleMigration, Proof, StepOutcome
    from odoo_tools.migrate.engine.plan import PlannedModule, module_folders, parse_series, plan_migration
    from odoo_tools.migrate.engine.proof import first_failure, held_back, proof_of, prove
    from odoo_tools.migrate.engine.proof_addons import ProofAddons, proof_addons
    from odoo_tools.migrate.steps.table import STEPS

_WHERE = {
    "MigrationReport": "odoo_tools.migrate.engine.models",
    "ModuleMigration": "odoo_tools.migrate.engine.models",
    "PlannedModule": "odoo_tools.migrate.engine.plan",
    "Proof": "odoo_tools.migrate.engine.models",
    "ProofAddons": "odoo_tools.migrate.engine.proof_addons",
    "STEPS": "odoo_tools.migrate.steps.table",
    "StepOutcome": "odoo_tools.migrate.engine.models",
    "first_failure": "odoo_tools.migrate.engine.proof",
    "held_back": "odoo_tools.migrate.engine.proof",
    "migrate": "odoo_tools.migrate._migrate",
    "migrate_module": "odoo_tools.migrate._migrate",
    "module_folders": "odoo_tools.migrate.engine.plan",
    "parse_series": "odoo_tools.migrate.engine.plan",
    "plan_migration": "odoo_tools.migrate.engine.plan",
    "proof_addons": "odoo_tools.migrate.engine.proof_addons",
    "proof_of": "odoo_tools.migrate.engine.proof",
    "prove": "odoo_tools.migrate.engine.proof",
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
