"""CLI: ``assista-odoo doctor``, ``assista-odoo templates list|clear`` and
``assista-odoo odoo install|upgrade|test MODULE...`` (one validation from the shell)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from assista_mcp.cli.common import add_odoo_flags, add_project_flags, settings_from_args
from assista_mcp.cli.output import add_format_flag, add_output_flag, emit
from assista_mcp.config.odoo_config import runner_config
from assista_mcp.config.settings import Settings
from odoo_tools.errors import InvalidInput
from odoo_tools.runs import DoctorReport, OdooRunner, ValidationResult, check_modules, run_doctor


def add_parsers(subparsers: Any) -> None:
    """Add this module's sub-commands."""
    doctor = subparsers.add_parser(
        "doctor",
        help="check PostgreSQL, odoo-bin, addons paths and Python dependencies",
        description="Check that Odoo validations can run here. Exit 0 when every check passes, 1 otherwise.",
    )
    doctor.add_argument("--modules", metavar="NAME[,NAME...]", help="only these modules' Python deps")
    add_format_flag(doctor, "the report")
    add_output_flag(doctor)
    _common(doctor)
    doctor.set_defaults(func=run_doctor_cmd)

    templates = subparsers.add_parser(
        "templates",
        help="list or clear the cached dependency databases, prune leftover run databases",
        description="Template databases hold the dependencies of validated modules (see README).",
    )
    templates.add_argument(
        "action",
        choices=("list", "clear", "prune"),
        help="prune: drop run databases no live run holds (left by a killed process, or kept)",
    )
    add_format_flag(templates, "the list")
    _common(templates)
    templates.set_defaults(func=run_templates_cmd)

    odoo = subparsers.add_parser(
        "odoo",
        help="install, upgrade or test modules in a real Odoo (disposable database)",
        description="Exit 0 when every module is installed (and its tests pass), 1 otherwise.",
    )
    odoo.add_argument(
        "action", choices=("install", "upgrade", "test"), help="install, upgrade, or install and test"
    )
    odoo.add_argument("modules", nargs="+", metavar="MODULE", help="module names (or a,b,c)")
    odoo.add_argument("--demo", action="store_true", help="load demo data")
    odoo.add_argument("--keep-db", action="store_true", help="keep the database for inspection")
    odoo.add_argument("--no-cache", action="store_true", help="start from an empty database")
    add_format_flag(odoo, "the result")
    add_output_flag(odoo)
    _common(odoo)
    odoo.set_defaults(func=run_odoo_cmd)


def _common(parser: argparse.ArgumentParser) -> None:
    add_project_flags(parser)
    add_odoo_flags(parser)


def run_doctor_cmd(args: argparse.Namespace) -> int:
    config = runner_config(settings_from_args(args))
    modules = [m.strip() for m in (args.modules or "").split(",") if m.strip()]
    report = asyncio.run(run_doctor(config, modules))
    emit(report.model_dump_json(indent=2) if args.format == "json" else render_doctor(report), args.output)
    return 0 if report.ok else 1


WITHOUT_ODOO = (
    "note: only install/upgrade/test need Odoo and PostgreSQL; `assista-odoo check` and the "
    "knowledge and file tools of `assista-odoo serve` work without them."
)


def render_doctor(report: DoctorReport) -> str:
    lines = []
    for check in report.checks:
        lines.append(f"{'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"     fix: {check.fix}")
    if report.ok:
        lines.append("all checks passed")
    else:
        lines.append("some checks failed")
        lines.append(WITHOUT_ODOO)
    return "\n".join(lines)


def run_templates_cmd(args: argparse.Namespace) -> int:
    cache = OdooRunner(runner_config(settings_from_args(args))).cache
    if args.action == "prune":
        pruned = cache.prune_runs()
        print(f"dropped {len(pruned)} database(s)" + "".join(f"\n  {name}" for name in pruned))
        return 0
    if args.action == "clear":
        dropped = cache.clear()
        print(f"dropped {len(dropped)} template(s)" + "".join(f"\n  {name}" for name in dropped))
        return 0
    infos = cache.templates()
    if args.format == "json":
        print(json.dumps([i.model_dump() for i in infos], indent=2))
        return 0
    if not infos:
        print("no templates")
    now = time.time()
    for info in infos:
        age = f"used {(now - info.last_used) / 3600:.1f} h ago" if info.last_used else "never used"
        what = "orphan" if info.orphan else f"odoo {info.odoo_version}, {len(info.modules)} module(s)"
        print(f"{info.name}  {what}, {age}, built in {info.build_seconds:.1f}s")
    return 0


def run_odoo_cmd(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    refuse_unknown_modules(settings, check_modules(args.modules, args.action))
    runner = OdooRunner(runner_config(settings))

    def progress(k: int, n: int, message: str) -> None:
        if args.format != "json":
            print(f"  {message}", file=sys.stderr)

    result = runner.validate_sync(
        args.action,
        args.modules,  # "a,b" is split by the runner
        demo=args.demo,
        keep_db=args.keep_db or None,
        use_cache=False if args.no_cache else None,
        on_progress=progress,
    )
    emit(result.model_dump_json(indent=2) if args.format == "json" else render_result(result), args.output)
    return 0 if result.ok else 1


def refuse_unknown_modules(settings: Settings, names: list[str]) -> None:
    """An unknown module is a usage error, decided before Odoo starts (odoo-bin would only log
    'invalid module names, ignored' after seconds): the modules of the addons path, Odoo's from
    its source, else the bundled core module list that ``check`` uses."""
    from assista_mcp.cli.check import open_project
    from odoo_tools.index import unknown_modules

    settings.workspace()  # a missing addons path: the sandbox's own message
    project = open_project(settings)
    addons = project.addons()
    unknown = unknown_modules(addons, project.series(addons).series, names)
    if unknown:
        where = "" if addons.has_odoo_source else " nor among Odoo's core modules"
        raise InvalidInput(
            f"Unknown module(s): {', '.join(unknown)}: found neither in the addons path{where}.",
            "Give module names (their folder names); check --addons-path.",
        )


def render_result(result: ValidationResult) -> str:
    lines = [result.summary]
    for finding in result.findings:
        lines.append(f"  {finding.severity}: {finding.location()}: [{finding.kind}] {finding.message}")
        if finding.hint:
            lines.append(f"      hint: {finding.hint}")
    for test in result.tests:
        if test.status != "pass":
            where = f"{test.path}:{test.line}" if test.path else test.module
            lines.append(f"  test {test.status}: {test.test_class}.{test.method} at {where}: {test.message}")
    cache = f"template {result.template.status}" + (
        f" ({result.template.name})" if result.template.name else ""
    )
    if result.template.rebuilt_because:
        cache += f", rebuilt because {result.template.rebuilt_because}"
    lines.append(f"  {result.duration_seconds:.1f}s, {cache}, log: {result.log_path}")
    if result.database:
        lines.append(f"  database kept: {result.database}")
    return "\n".join(lines)
