"""``assista-odoo doctor`` / ``odoo_doctor``: is everything in place to run Odoo validations?

Each check says what it found; a failed one carries a one-line fix. The checks never change
anything but our own cache folder (no database is created: CREATEDB is read from ``pg_roles``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from odoo_tools.addons import discover_addons
from odoo_tools.errors import AssistaError
from odoo_tools.runs._externals import interpreter_of, python_version, refused_externals
from odoo_tools.runs._odoo_bin import OdooBin, child_env, find_odoo_bin, inspect_odoo
from odoo_tools.runs._pg import Pg, PgParams
from odoo_tools.runs._validate import RunnerConfig
from odoo_tools.series import SUPPORTED_SERIES, SeriesFacts, known_facts


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
    pg_version, checks = _postgres_checks(Pg(config.pg, prefix=config.db_prefix))
    odoo, odoo_checks = await _odoo_checks(config)
    checks += odoo_checks
    facts = known_facts(odoo.series) if odoo is not None else None
    if odoo is not None and facts is not None:
        checks.append(await _python_check(odoo, facts))
        if pg_version is not None:
            checks.append(_postgres_version_check(pg_version, facts))
    checks += _addons_path_checks(config.addons_paths)
    if odoo is not None:
        checks.append(await _external_dependencies(config, odoo, modules))
    checks.append(_cache_dir_check(config.cache_dir))
    return DoctorReport(ok=all(c.ok for c in checks), checks=checks)


def _postgres_checks(pg: Pg) -> tuple[str | None, list[DoctorCheck]]:
    """(the server's version when reachable, the checks)."""
    where = pg.params.describe()
    try:
        version, may_create = pg.server_info()
    except AssistaError as exc:
        return None, [DoctorCheck(name="postgresql", ok=False, detail=exc.message, fix=exc.hint)]
    role = pg.params.user or "your role"
    return version, [
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
    python = interpreter_of(odoo.path, odoo.python) or "from its #!"
    detail = f"Odoo {odoo.version} (series {odoo.series}), interpreter {python}"
    facts = known_facts(odoo.series)
    if facts is None:
        supported = ", ".join(SUPPORTED_SERIES)
        detail += f": series {odoo.series} is not supported (supported are {supported})"
        fix = f"Point --odoo-bin at an Odoo of a supported series ({supported})."
        return odoo, [found, DoctorCheck(name="odoo-version", ok=False, detail=detail, fix=fix)]
    if not facts.runs_verified:
        detail += f"; {facts.runs_note}"
    return odoo, [found, DoctorCheck(name="odoo-version", ok=True, detail=detail)]


async def _python_check(odoo: OdooBin, facts: SeriesFacts) -> DoctorCheck:
    """The interpreter that runs odoo-bin against the series' Python range (odoo/release.py or
    odoo/__init__.py: MIN_PY_VERSION fails the start, past MAX_PY_VERSION Odoo only warns)."""
    python = interpreter_of(odoo.path, odoo.python)
    if python is None:
        return DoctorCheck(
            name="odoo-python",
            ok=False,
            detail=f"cannot tell which Python runs {odoo.path} (no #! line)",
            fix="Pass --odoo-python (odoo_python in assista-odoo.toml).",
        )
    try:
        version = await python_version(python, child_env(PgParams(), os.environ))
    except AssistaError as exc:
        return DoctorCheck(name="odoo-python", ok=False, detail=exc.message, fix=exc.hint)
    if version is None:
        return DoctorCheck(
            name="odoo-python",
            ok=False,
            detail=f"{python} did not say its version",
            fix="Pass --odoo-python with the interpreter of the Odoo environment.",
        )
    starts, problem = facts.python_problem(version)
    dotted = ".".join(map(str, version))
    wanted = facts.python_range
    return DoctorCheck(
        name="odoo-python",
        ok=starts,
        detail=f"{python}: " + (problem or f"Python {dotted}, within Odoo {facts.series}'s {wanted}"),
        fix="" if starts else f"Run Odoo {facts.series} with a Python {wanted} (--odoo-python).",
    )


def _postgres_version_check(version: str, facts: SeriesFacts) -> DoctorCheck:
    """The server against the series' minimum (odoo/release.py MIN_PG_VERSION where it has one)."""
    digits = re.match(r"\d+", version)
    problem = facts.postgresql_problem(int(digits.group(0))) if digits else f"unreadable version {version!r}"
    return DoctorCheck(
        name="postgresql-version",
        ok=not problem,
        detail=problem
        or f"PostgreSQL {version}: "
        + (
            f"Odoo {facts.series} wants {facts.postgresql_min} or newer"
            if facts.postgresql_min
            else f"Odoo {facts.series} checks no minimum"
        ),
        fix=f"Use a PostgreSQL {facts.postgresql_min} or newer (--db-host/--db-port)." if problem else "",
    )


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
    """Checked as Odoo checks them, in its interpreter, without importing anything from the addons
    roots (see ``_externals``): a tool that says it only reads never runs the project's code."""
    addons = discover_addons(config.addons_paths)
    chosen = [addons.addons[m] for m in modules if m in addons] if modules else list(addons.addons.values())
    wanted: dict[str, list[str]] = {}
    for addon in chosen:
        externals = addon.manifest.external_dependencies
        for kind in ("python", "bin"):
            for name in externals.get(kind) or []:
                if isinstance(name, str):
                    wanted.setdefault(name if kind == "python" else f"bin:{name}", []).append(addon.name)
    if not wanted:
        return DoctorCheck(name="python-dependencies", ok=True, detail="no external dependencies declared")
    python = interpreter_of(odoo.path, odoo.python) or "python3"
    env = child_env(PgParams(), config.base_env or os.environ)
    roots = [*config.addons_paths, *odoo.core_addons]
    python_deps = [n for n in wanted if not n.startswith("bin:")]
    binaries = [n.removeprefix("bin:") for n in wanted if n.startswith("bin:")]
    try:
        refused = await refused_externals(python, roots, python_deps, binaries, env)
    except AssistaError as exc:
        return DoctorCheck(name="python-dependencies", ok=False, detail=exc.message, fix=exc.hint)
    if not refused:
        return DoctorCheck(name="python-dependencies", ok=True, detail=f"met: {', '.join(sorted(wanted))}")
    who = "; ".join(
        f"{name.removeprefix('bin:')} (needed by {', '.join(wanted[name])}): {reason}"
        for name, reason in sorted(refused.items())
    )
    missing = [n for n in sorted(refused) if not n.startswith("bin:")]
    fix = f"{python} -m pip install {' '.join(missing)}  (the pip name may differ from the import name)"
    return DoctorCheck(
        name="python-dependencies",
        ok=False,
        detail=f"not met in {python}: {who}",
        fix=fix if missing else "Install the missing programs, or put them on PATH.",
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
