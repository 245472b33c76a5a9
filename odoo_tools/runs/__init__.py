"""Real Odoo runs: odoo-bin, odoo.conf, PostgreSQL, template databases, install/upgrade/test, doctor.

The face of the package: callers import from here; the ``_modules`` inside are private.
"""

from odoo_tools.runs._doctor import DoctorReport, run_doctor
from odoo_tools.runs._odoo_bin import RunSpec, build_argv, child_env, run_odoo
from odoo_tools.runs._odoo_conf import read_odoo_conf, split_addons_path
from odoo_tools.runs._pg import PgParams, new_db_name
from odoo_tools.runs._result import Action, ValidationResult
from odoo_tools.runs._validate import OdooRunner, RunnerConfig

__all__ = [
    "Action",
    "DoctorReport",
    "OdooRunner",
    "PgParams",
    "RunSpec",
    "RunnerConfig",
    "ValidationResult",
    "build_argv",
    "child_env",
    "new_db_name",
    "read_odoo_conf",
    "run_doctor",
    "run_odoo",
    "split_addons_path",
]
