"""``assista-odoo doctor`` / ``odoo_doctor``: is everything in place to run Odoo validations?

Each check says what it found; a failed one carries a one-line fix. The checks never change
anything but our own cache folder (no database is created: CREATEDB is read from ``pg_roles``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from odoo_tools.addons import discover_addons
from odoo_tools.errors import AssistaError
from odoo_tools.process import run_process
from odoo_tools.runs._odoo_bin import OdooBin, child_env, find_odoo_bin, inspect_odoo
from odoo_tools.runs._pg import Pg, PgParams
from odoo_tools.runs._validate import RunnerConfig

# Prints the import names that cannot be found, one per line, in Odoo's own interpreter.
_PROBE = (
    "import importlib.util, sys\n"
    "for name in sys.argv[1:]:\n"
    "    if importlib.util.find_spec(name) is None:\n"
    "        print(name)\n"
)


class DoctorCheck(BaseModel):
    name: str
    ok: bool
    detail: str
    fix: str = Field(default="", description="One line saying how to fix a failed check")


class DoctorReport(BaseModel):
    ok: bool
    checks: list[DoctorCheck]


async def run_doctor(config: RunnerConfig, modules: Sequence[str] = ()) -> DoctorReport:
    """Check PostgreSQL, odoo-bin, the addons paths and the external Python dependencies of
    ``modules`` (default: every module in the addons paths) in Odoo's interpreter."""
    checks = _postgres_checks(Pg(config.pg, prefix=config.db_prefix))
    odoo, odoo_checks = await _odoo_checks(config)
    checks += odoo_checks
    checks += _addons_path_checks(config.addons_paths)
    if odoo is not None:
        checks.append(await _external_dependencies(config, odoo, modules))
    checks.append(_cache_dir_check(config.cache_dir))
    return DoctorReport(ok=all(c.ok for c in checks), checks=checks)


def _postgres_checks(pg: Pg) -> list[DoctorCheck]:
    where = pg.params.describe()
    try:
        version, may_create = pg.server_info()
    except AssistaError as exc:
        return [DoctorCheck(name="postgresql", ok=False, detail=exc.message, fix=exc.hint)]
    role = pg.params.user or "your role"
    return [
        DoctorCheck(name="postgresql", ok=True, detail=f"PostgreSQL {version} reachable as {where}"),
        DoctorCheck(
            name="postgresql-createdb",
            ok=may_create,
            detail="the role may create databases" if may_create else "the role may NOT create databases",
            fix="" if may_create else f'As a superuser: ALTER ROLE "{role}" CREATEDB;',
        ),
    ]


async def _odoo_checks(config: RunnerConfig) -> tuple[OdooBin | None, list[DoctorCheck]]:
    try:
        path = find_odoo_bin(config.odoo_bin, conf_addons_paths=config.addons_paths)
    except AssistaError as exc:
        return None, [DoctorCheck(name="odoo-bin", ok=False, detail=exc.message, fix=exc.hint)]
    found = DoctorCheck(name="odoo-bin", ok=True, detail=str(path))
    try:
        odoo = await inspect_odoo(path, config.odoo_python)
    except AssistaError as exc:
        return None, [found, DoctorCheck(name="odoo-version", ok=False, detail=exc.message, fix=exc.hint)]
    detail = f"Odoo {odoo.version} (series {odoo.series}), interpreter {_interpreter(odoo) or 'from its #!'}"
    return odoo, [found, DoctorCheck(name="odoo-version", ok=True, detail=detail)]


def _addons_path_checks(paths: Sequence[Path]) -> list[DoctorCheck]:
    if not paths:
        fix = "Pass --addons-path DIR[,DIR...], set ASSISTA_ADDONS_PATH, or give --odoo-config."
        return [DoctorCheck(name="addons-path", ok=False, detail="no addons path configured", fix=fix)]
    checks = []
    for path in paths:
        if not path.is_dir():
            checks.append(
                DoctorCheck(
                    name="addons-path",
                    ok=False,
                    detail=f"{path} is not a directory",
                    fix="Fix or remove this entry of the addons path.",
                )
            )
            continue
        count = len(discover_addons([path]).addons)
        checks.append(
            DoctorCheck(
                name="addons-path",
                ok=count > 0,
                detail=f"{path}: {count} module(s)",
                fix="" if count else "Point the addons path at the folder that CONTAINS the module folders.",
            )
        )
    return checks


async def _external_dependencies(config: RunnerConfig, odoo: OdooBin, modules: Sequence[str]) -> DoctorCheck:
    addons = discover_addons(config.addons_paths)
    chosen = [addons.addons[m] for m in modules if m in addons] if modules else list(addons.addons.values())
    wanted: dict[str, list[str]] = {}
    for addon in chosen:
        for name in addon.manifest.external_dependencies.get("python", []):
            wanted.setdefault(name, []).append(addon.name)
    if not wanted:
        return DoctorCheck(
            name="python-dependencies", ok=True, detail="no external Python dependencies declared"
        )
    python = _interpreter(odoo) or "python3"
    env = child_env(PgParams(), config.base_env or os.environ)
    try:
        result = await run_process([python, "-c", _PROBE, *sorted(wanted)], env=env, timeout=60)
    except AssistaError as exc:
        return DoctorCheck(name="python-dependencies", ok=False, detail=exc.message, fix=exc.hint)
    missing = result.stdout.split()
    if result.returncode != 0:
        return DoctorCheck(
            name="python-dependencies",
            ok=False,
            detail=f"{python} could not run the import probe: {result.stderr.strip()[-200:]}",
            fix="Pass --odoo-python with the interpreter of your Odoo environment.",
        )
    if not missing:
        return DoctorCheck(
            name="python-dependencies", ok=True, detail=f"importable: {', '.join(sorted(wanted))}"
        )
    who = "; ".join(f"{name} (needed by {', '.join(wanted[name])})" for name in missing)
    return DoctorCheck(
        name="python-dependencies",
        ok=False,
        detail=f"not importable in {python}: {who}",
        fix=f"{python} -m pip install {' '.join(missing)}  (the pip name may differ from the import name)",
    )


def _cache_dir_check(cache_dir: Path) -> DoctorCheck:
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        writable = os.access(cache_dir, os.W_OK)
    except OSError:
        writable = False
    return DoctorCheck(
        name="cache-dir",
        ok=writable,
        detail=f"{cache_dir} ({'writable' if writable else 'not writable'}): templates, logs, filestores",
        fix="" if writable else "Set ASSISTA_CACHE_DIR to a writable folder.",
    )


def _interpreter(odoo: OdooBin) -> str | None:
    """The Python that runs odoo-bin: --odoo-python, else the script's ``#!`` line."""
    if odoo.python:
        return odoo.python
    try:
        with odoo.path.open("rb") as handle:
            first = handle.readline().decode("utf-8", "replace").strip()
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    parts = first[2:].split()
    if not parts:
        return None
    if Path(parts[0]).name == "env" and len(parts) > 1:
        return shutil.which(parts[1]) or parts[1]
    return parts[0]
