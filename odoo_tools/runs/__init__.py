"""Real Odoo runs: odoo-bin, odoo.conf, PostgreSQL, template databases, install/upgrade/test, doctor.

The face of the package: callers import from here; the ``_modules`` inside are private. Names
are imported on first use (PEP 562), so a caller that only reads odoo.conf (the settings, hence
every command) does not pay for psycopg2, the log parser and the runner (~0.15 s at start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.lazy_names import first_use_getattr

if TYPE_CHECKING:
    from odoo_tools.runs._doctor import DoctorReport, run_doctor
    from odoo_tools.runs._odoo_bin import RunSpec, build_argv, child_env, find_odoo_bin, run_odoo
    from odoo_tools.runs._odoo_conf import read_odoo_conf, split_addons_path
    from odoo_tools.runs._pg import PgParams, new_db_name
    from odoo_tools.runs._plan import check_modules
    from odoo_tools.runs._result import Action, ValidationResult
    from odoo_tools.runs._validate import OdooRunner, RunnerConfig

_WHERE = {
    "DoctorReport": "_doctor",
    "run_doctor": "_doctor",
    "RunSpec": "_odoo_bin",
    "build_argv": "_odoo_bin",
    "child_env": "_odoo_bin",
    "find_odoo_bin": "_odoo_bin",
    "run_odoo": "_odoo_bin",
    "read_odoo_conf": "_odoo_conf",
    "split_addons_path": "_odoo_conf",
    "PgParams": "_pg",
    "check_modules": "_plan",
    "new_db_name": "_pg",
    "Action": "_result",
    "ValidationResult": "_result",
    "OdooRunner": "_validate",
    "RunnerConfig": "_validate",
}

__all__ = [
    "Action",
    "DoctorReport",
    "OdooRunner",
    "PgParams",
    "RunSpec",
    "RunnerConfig",
    "ValidationResult",
    "build_argv",
    "check_modules",
    "child_env",
    "find_odoo_bin",
    "new_db_name",
    "read_odoo_conf",
    "run_doctor",
    "run_odoo",
    "split_addons_path",
]


__getattr__ = first_use_getattr(globals(), {k: f"{__name__}.{v}" for k, v in _WHERE.items()})
