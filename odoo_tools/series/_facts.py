"""Per series, every fact about Odoo the code branches on, with the file each one was read from.

A new series is one ``SeriesFacts`` entry appended to ``SERIES`` (plus its data: the core module
list ``odoo_tools/series/core_modules/<series>.json``, its guidelines ``assista_mcp/guidelines/<series>.md``
and the API changes that take effect in it, ``api_changes.toml``). Code that branches on what a
series allows asks for its facts here rather than comparing series numbers; ordering series (which
step of a migration comes first, ``migrate``'s plan) compares them, and that is all it does with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How odoo/modules/module.py (adapt_version, check_version) reads a manifest's version:
# "any": taken as it is (16.0); "short-or-prefixed": x.y, x.y.z, <series>.x.y or <series>.x.y.z (17.0,
# 18.0); "two-to-five-parts": 2 to 5 numeric parts (19.0 on).
VersionRule = Literal["any", "short-or-prefixed", "two-to-five-parts"]
PythonLinter = Literal["flake8", "ruff"]
Version = tuple[int, ...]


@dataclass(frozen=True)
class AccessFacts:
    """How a module grants access to its models on a series."""

    model: str  # the model whose records grant access: "ir.model.access", "ir.access"
    csv_file: str  # the module-relative CSV file Odoo's own modules use
    csv_example: str  # the header and one line of that file, with {model} and {ident} to fill in
    record_rule_model: str | None  # the model of record rules ("ir.rule"), None when there is none
    # Access models this series does not have: loading a record of one fails the install.
    unknown_models: tuple[str, ...]
    # ir.access only: the values its ``operation`` selection accepts, and whether a row without a group
    # grants nothing (a restriction every user must also satisfy) instead of access for everyone.
    operations: tuple[str, ...] = ()
    group_less_restricts: bool = False
    note: str = ""  # what else a hint about granting access should say
    source: str = ""

    def example(self, model: str) -> str:
        return self.csv_example.format(model=model, ident=model.replace(".", "_"))


@dataclass(frozen=True)
class SeriesFacts:
    series: str  # "18.0"
    python_min: Version  # MIN_PY_VERSION: an older Python fails at import
    python_max: Version | None  # MAX_PY_VERSION: a newer one only gets a warning (None: none declared)
    python_source: str  # where the two come from
    postgresql_min: int | None  # MIN_PG_VERSION: an older server gets a warning (None: Odoo checks none)
    postgresql_source: str
    access: AccessFacts
    # odoo-bin: demo data is opt-in (--with-demo) instead of opt-out (--without-demo=all)
    demo_opt_in: bool
    # Listing the addons path (every -i does) raises "Invalid module name" on a folder named otherwise
    # than ``\w{1,256}``.
    strict_module_names: bool
    version_rule: VersionRule
    # A 4- or 5-number version that does not start with the series makes the module uninstallable.
    foreign_version_uninstallable: bool
    # An unknown group in a view arch's groups= only logs a warning (the view installs).
    arch_unknown_group_warns: bool
    # BaseModel still has the magic field ``__last_update`` (gone in 17.0, odoo/models.py).
    last_update_field: bool
    # OCA's repository template: the Python style linter, and the oca-odoo-pre-commit-hooks release
    # it pins (None: not known here).
    python_linter: PythonLinter
    oca_hooks_release: Version | None
    # A relational field whose comodel the registry lacks stops the registry's setup: "Field x with
    # unknown comodel_name 'y'" fails the install (19.0: an assert in odoo/orm/fields_relational.py
    # setup_nonrelated; up to 18.0 odoo/fields.py only logs a warning and the field gets '_unknown').
    unknown_comodel_refused: bool = False
    # The children of a view's <field> that are its inline sub-views: ir_ui_view.py _validate_view
    # takes them out of the combined arch and validates each on its own, as a view of the comodel,
    # before _check_xml looks for "attrs"/"states" in what is left (17.0, 18.0 and 19.0 sources), so
    # an attrs a sub-view holds installs (probed on the 18.0 and 19.0 labs).
    inline_view_tags: tuple[str, ...] = ("form", "list", "graph", "kanban", "calendar")
    # A real Odoo of this series has run our install/test paths (False: they follow its code, unverified).
    runs_verified: bool = True
    runs_note: str = ""

    @property
    def major(self) -> int:
        return int(self.series.split(".")[0])

    @property
    def python_range(self) -> str:
        newest = f" to {_dotted(self.python_max)}" if self.python_max else " or newer"
        return f"{_dotted(self.python_min)}{newest}"

    def python_problem(self, version: Version) -> tuple[bool, str]:
        """(whether Odoo starts on this Python, what is wrong with it: '' when nothing)."""
        wanted = f"Odoo {self.series} supports Python {self.python_range}"
        if version[:2] < self.python_min:
            return False, f"Python {_dotted(version)} is too old: {wanted} (an older one fails at start)"
        if self.python_max and version[:2] > self.python_max:
            return True, f"Python {_dotted(version)} is newer than {wanted}: Odoo logs a warning at start"
        return True, ""

    def postgresql_problem(self, major: int) -> str:
        """What is wrong with a PostgreSQL server of this major version for this series ('' when nothing)."""
        if self.postgresql_min is not None and major < self.postgresql_min:
            return (
                f"PostgreSQL {major} is older than Odoo {self.series}'s minimum, {self.postgresql_min} "
                "(Odoo warns 'lower than minimum required')"
            )
        return ""

    @property
    def demo_flags(self) -> tuple[str, str]:
        """(the flag with demo data, the flag without): one of them is empty."""
        return ("--with-demo", "") if self.demo_opt_in else ("", "--without-demo=all")


def _dotted(version: Version) -> str:
    return ".".join(str(part) for part in version)


_MODEL_ACCESS = AccessFacts(
    model="ir.model.access",
    csv_file="security/ir.model.access.csv",
    csv_example="id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
    "access_{ident}_user,{model} user,model_{ident},base.group_user,1,1,1,1",
    record_rule_model="ir.rule",
    unknown_models=("ir.access",),
    source="odoo/addons/base/models/ir_model.py (IrModelAccess), ir_rule.py (a 19.0 source: no ir_access.py)",
)

# Odoo 20.0, read in odoo/odoo's own files: odoo/upgrade_code/19.4-00-ir-access.py (commit 9507479)
# writes security/ir.access.csv with the header id,name,model_id,group_id/id,operation,domain, the
# operation as the letters c, r, u, d in that order, and removes the ir.model.access files and ir.rule
# records (neither model is left); odoo/addons/base/models/ir_access.py (commit 5d9a661) ORs the
# permissions (rows with a group) and ANDs the restrictions (rows without one).
# UNVERIFIED in odoo/odoo: that 20.0's ir.access selection itself is spelled in 'crud' letters. The
# ir_access.py of odoo/odoo we could read (5d9a661) still lists 'rwcd' values; the 'crud' selection
# (CRUD_SELECTION) was read only in the Vauxoo/odoo mirror (commit ce495e0).
# odoo/odoo's base/security/ir.access.csv, two stored versions (issue 31 R, read 2026-11-28; no dates):
# c26577d: id,model_id,group_id/id,operation,domain,name, the model by name, 'rwcd' letters, rows
# without a group restrict; 1698596: id,name,model_id/id,group_id/id,kind,operation,domain, the model
# by xml id, 'crud' letters, and a kind column: 'permission' (grants) or 'guard' (a restriction, written
# with group_everyone instead of an empty group). Our reader ignores kind: a guard row reads as a
# grant, which can only hide a missing-access-rule, never make one. Not changed without a 20.0 Odoo.
CRUD_OPERATIONS = tuple(
    "".join(letter for letter, bit in zip("crud", (8, 4, 2, 1), strict=True) if mask & bit)
    for mask in range(15, 0, -1)
)
_IR_ACCESS = AccessFacts(
    model="ir.access",
    csv_file="security/ir.access.csv",
    csv_example="id,name,model_id,group_id/id,operation,domain\n"
    "access_{ident}_user,{model} user,{model},base.group_user,crud,",
    record_rule_model=None,
    unknown_models=("ir.model.access", "ir.rule"),
    operations=CRUD_OPERATIONS,
    group_less_restricts=True,
    note="operation: the letters c, r, u, d in that order ('crud', 'r'...); a row without a group only "
    "restricts (every user must also satisfy its domain); Odoo's upgrade_code script 19.4-00-ir-access "
    "converts ir.model.access files and ir.rule records",
    source="odoo/addons/base/models/ir_access.py; odoo/upgrade_code/19.4-00-ir-access.py",
)

SERIES: tuple[SeriesFacts, ...] = (
    SeriesFacts(
        series="16.0",
        python_min=(3, 7),
        python_max=None,
        python_source="odoo/__init__.py MIN_PY_VERSION, no MAX_PY_VERSION (a 16.0 source snapshot)",
        postgresql_min=None,
        postgresql_source="odoo/sql_db.py checks no minimum before 19.0 (read in 17.0 and 18.0 sources)",
        access=_MODEL_ACCESS,
        demo_opt_in=False,
        strict_module_names=False,
        version_rule="any",
        foreign_version_uninstallable=False,
        arch_unknown_group_warns=True,
        last_update_field=True,
        python_linter="flake8",
        oca_hooks_release=(0, 0, 25),
        inline_view_tags=("form", "tree", "graph", "kanban", "calendar"),
    ),
    SeriesFacts(
        series="17.0",
        python_min=(3, 10),
        python_max=None,
        python_source="odoo/__init__.py MIN_PY_VERSION, no MAX_PY_VERSION (a 17.0-20240709 source)",
        postgresql_min=None,
        postgresql_source="odoo/sql_db.py: no minimum checked (a 17.0 source)",
        access=_MODEL_ACCESS,
        demo_opt_in=False,
        strict_module_names=False,
        version_rule="short-or-prefixed",
        foreign_version_uninstallable=False,
        arch_unknown_group_warns=True,
        last_update_field=False,
        python_linter="ruff",
        oca_hooks_release=(0, 0, 25),
        inline_view_tags=("form", "tree", "graph", "kanban", "calendar"),
    ),
    SeriesFacts(
        series="18.0",
        python_min=(3, 10),
        python_max=(3, 12),
        python_source="odoo/__init__.py MIN_PY_VERSION, MAX_PY_VERSION (odoo/cli/server.py warns; "
        "an 18.0 source)",
        postgresql_min=None,
        postgresql_source="odoo/sql_db.py: no minimum checked ('PostgreSQL version (>10)'; an 18.0 source)",
        access=_MODEL_ACCESS,
        demo_opt_in=False,
        strict_module_names=False,
        version_rule="short-or-prefixed",
        foreign_version_uninstallable=False,
        arch_unknown_group_warns=True,
        last_update_field=False,
        python_linter="ruff",
        oca_hooks_release=(0, 0, 33),
    ),
    SeriesFacts(
        series="19.0",
        python_min=(3, 10),
        python_max=(3, 13),
        python_source="odoo/release.py MIN_PY_VERSION, MAX_PY_VERSION (a 19.0 source)",
        postgresql_min=13,
        postgresql_source="odoo/release.py MIN_PG_VERSION, a warning in odoo/sql_db.py (a 19.0 source)",
        access=_MODEL_ACCESS,
        demo_opt_in=True,
        strict_module_names=True,
        version_rule="two-to-five-parts",
        foreign_version_uninstallable=True,
        arch_unknown_group_warns=True,
        last_update_field=False,
        python_linter="ruff",
        oca_hooks_release=(0, 1, 7),
        unknown_comodel_refused=True,
    ),
    SeriesFacts(
        series="20.0",
        python_min=(3, 12),
        python_max=(3, 14),
        python_source="UNVERIFIED: odoo/release.py MIN_PY_VERSION, MAX_PY_VERSION as read in "
        "zenphamgeek/odoo, not odoo/odoo (a rebranded tree whose release.py says version_info = "
        "(20, 0, 0, FINAL, 0, ''); no 20.0 release.py of odoo/odoo could be read)",
        postgresql_min=16,
        postgresql_source="UNVERIFIED: odoo/release.py MIN_PG_VERSION, the same zenphamgeek/odoo file",
        access=_IR_ACCESS,
        # odoo/orm/registry.py: new_db_demo = config['with_demo'] (odoo/odoo, commit 00e211c)
        demo_opt_in=True,
        # Manifest checks as on 19.0: odoo/modules/module.py of 20.0 was not readable here.
        strict_module_names=True,
        version_rule="two-to-five-parts",
        foreign_version_uninstallable=True,
        arch_unknown_group_warns=True,
        last_update_field=False,
        python_linter="ruff",
        oca_hooks_release=None,
        runs_verified=False,
        runs_note="Odoo 20.0 runs are unverified: no real 20.0 was run by these tools (its facts come "
        "from its source files)",
    ),
)
