"""``assista-odoo check``: the CI gate. Exit 0 clean, 1 findings at or above --fail-on, 2 usage.

Findings come from a list of producers (``PRODUCERS``); each adds its own flags and returns
findings for the selected modules. The lint producer (``lint_check``: pylint-odoo, flake8, OCA
hooks, static checks) is the first; the Odoo install/test runs (``odoo_check``) plug in the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from assista_mcp.cli.check_context import CheckContext, Producer
from assista_mcp.cli.check_report import adopted, display_path, emit, progress
from assista_mcp.cli.common import add_project_flags, settings_from_args
from assista_mcp.cli.lint_check import LintProducer
from assista_mcp.cli.output import refuse_unwritable, writable_file
from assista_mcp.config.settings import Settings
from odoo_tools.addons import Addon, odoo_core_roots
from odoo_tools.errors import InvalidInput
from odoo_tools.findings import Finding, sort_findings
from odoo_tools.lint import (
    SEARCH_DEPTH,
    LintProject,
    changed_files,
    changed_modules,
    core_roots_from_python,
    lint_project,
    roots_for_targets,
    shard,
    split_core_roots,
)
from odoo_tools.lint.reporters import FORMATS, INCOMPLETE, Report
from odoo_tools.project import Project


def _odoo_producer() -> Producer:
    from assista_mcp.cli.odoo_check import OdooProducer  # --install / --test: imported only then

    return OdooProducer()


PRODUCERS: list[Producer] = [LintProducer(), _odoo_producer()]


def add_parsers(subparsers: Any) -> None:
    """Add this module's sub-commands."""
    parser = subparsers.add_parser(
        "check",
        help="lint and statically check modules (CI gate)",
        description="Check Odoo modules with pylint-odoo, flake8, OCA's XML/CSV/PO hooks and static "
        "cross-file checks. Exit 0 when clean, 1 when findings reach --fail-on, 2 on usage errors.",
    )
    parser.add_argument("targets", nargs="*", metavar="PATH_OR_MODULE", help="default: every module")
    add_project_flags(parser)
    selection = parser.add_argument_group("selection")
    selection.add_argument(
        "--changed", action="store_true", help="only modules with files changed since --base"
    )
    selection.add_argument(
        "--base", metavar="REF", help="git base for --changed (default: origin/HEAD, main...)"
    )
    selection.add_argument(
        "--with-dependents", action="store_true", help="with --changed: add their dependents"
    )
    selection.add_argument("--shard", metavar="I/N", help="check only the I-th of N deterministic slices")
    adoption = parser.add_argument_group("adopting on an existing repository")
    adoption.add_argument(
        "--baseline",
        metavar="FILE",
        help="known findings: written on first use, later runs fail only on findings not in it",
    )
    adoption.add_argument("--update-baseline", action="store_true", help="rewrite --baseline FILE")
    adoption.add_argument(
        "--new-only", action="store_true", help="report only findings on lines changed since --base"
    )
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=sorted(FORMATS), default="text", help="report format")
    output.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        type=writable_file,
        help="write the report there (a summary still prints)",
    )
    output.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="exit 1 when a finding reaches this severity",
    )
    for producer in PRODUCERS:
        producer.add_flags(parser)
    parser.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    if args.update_baseline and not args.baseline:
        raise InvalidInput(
            "--update-baseline needs --baseline FILE.", "Add --baseline FILE (e.g. .assista-baseline.json)."
        )
    if args.with_dependents and not args.changed:
        raise InvalidInput(
            "--with-dependents only adds to --changed.", "Add --changed (and --base REF), or drop it."
        )
    if args.baseline and (args.update_baseline or not Path(args.baseline).exists()):
        refuse_unwritable(args.baseline, "--baseline")  # it will be written: say so before the run
    settings = settings_from_args(args)
    if not settings.addons_paths:  # like ruff or flake8: the paths given, else the current folder
        _refuse_missing(args.targets)
        roots = roots_for_targets(args.targets)
        if not roots:
            return _nothing_found(args.targets)
        settings = settings.model_copy(update={"addons_paths": roots})
        args.targets = args.targets or ["."]  # none = the current folder: inside a module, just it
    settings.workspace()  # fail early, with the sandbox's message, on a missing or bad addons path
    roots = project_roots(settings)[0]
    project = lint_project(open_project(settings, cache=not getattr(args, "no_cache", False)))
    _refuse_contradicting_series(settings, project)
    if getattr(args, "profile", "auto") != "auto":
        project.profile = args.profile
    started = time.monotonic()
    addons = _select(args, project)
    empty: list[str] = []
    if not addons and not project.checkable() and not project.skipped():
        empty = _nothing_checked(roots, split_core_roots(settings.addons_paths)[1])
    findings: list[Finding] = []
    checks: list[str] = []
    tools: list[str] = []
    missing_tools: list[str] = []
    with progress(sum(p.units(args, addons) for p in PRODUCERS)) as advance:
        for producer in PRODUCERS:
            ctx = CheckContext(args, settings, project, addons, advance)
            findings += producer.produce(ctx)
            checks += ctx.checks
            tools += ctx.tools
            missing_tools += ctx.missing_tools
    notes = [f"{INCOMPLETE}{line}" for line in missing_tools] + empty + project.notes(addons)
    findings = adopted(args, project, sort_findings(findings), notes)
    report = Report(
        findings=findings,
        modules=[a.name for a in addons],
        checks=tuple(checks),
        ran=tuple(tools),
        fail_on=args.fail_on,
        series=project.series_for(addons),
        seconds=time.monotonic() - started,
        display_path=display_path(project),
        skipped=project.skipped(args.targets),
        notes=notes,
    )
    emit(args, report)
    if missing_tools:  # the gate did not run all it was asked to: neither passed nor failed
        for line in missing_tools:
            print(f"assista-odoo check: incomplete: {line}", file=sys.stderr)
        return 2
    return 1 if report.failed else 0


def project_roots(settings: Settings) -> tuple[list[Path], list[Path]]:
    """The project's own addons roots, and Odoo's core addons folders (read-only, for the static
    checks): from --odoo-path or odoo-bin's folder, core folders listed in the addons path
    (odoo.conf), else the ``odoo.addons`` of the Odoo that --odoo-python imports."""
    own, core = split_core_roots(settings.addons_paths)
    source = settings.odoo_source()
    if source is not None:
        core = odoo_core_roots(source) + [c for c in core if c not in odoo_core_roots(source)]
    if not core and settings.odoo_python:
        core = core_roots_from_python(settings.odoo_python)
    return own, core


def open_project(settings: Settings, cache: bool = True) -> Project:
    """The project a command reads: its own roots and Odoo's core folders (``project_roots``), its
    Odoo source and series setting, the index cache unless ``cache`` is off."""
    own, core = project_roots(settings)
    return Project.open(
        own,
        core,
        odoo_path=settings.odoo_source(),
        series=settings.odoo_series,
        cache_dir=settings.cache_dir if cache else None,
    )


def _nothing_checked(roots: list[Path], taken_as_core: list[Path]) -> list[str]:
    """Why a run checked no module: a folder of the addons path taken for an Odoo source tree's
    addons (its modules are Odoo's, never checked), or a repository branch with no module yet
    (nothing fails, but the report says why nothing was checked)."""
    if taken_as_core:
        shown = ", ".join(str(r) for r in taken_as_core)
        return [
            f"the modules of {shown} were skipped as Odoo's own: the folder sits in an Odoo source tree "
            "(odoo/release.py or a base module beside it). To check them as yours, name the module folders "
            f"(assista-odoo check {taken_as_core[0]}/*), or move them out of the Odoo tree."
        ]
    return [
        f"no Odoo module found in the addons roots ({', '.join(str(r) for r in roots)}): nothing "
        "to check. If modules should be there, point --addons-path at the folders holding them."
    ]


def _refuse_contradicting_series(settings: Settings, project: LintProject) -> None:
    """--odoo-series is for a project whose series cannot be detected: one that says otherwise
    than the manifests (or the Odoo source) would be silently ignored."""
    from odoo_tools.series import normalize_series

    if settings.odoo_series and project.series and normalize_series(settings.odoo_series) != project.series:
        raise InvalidInput(
            f"--odoo-series {settings.odoo_series} contradicts the project: its manifests' versions "
            f"(or its Odoo source) say {project.series}.",
            "Drop --odoo-series (it is only used when the series cannot be detected), or fix the versions.",
        )


def _refuse_missing(targets: list[str]) -> None:
    """A mistyped path is a usage error, never 'nothing to check' (a gate that passes on a typo)."""
    missing = [t for t in targets if not Path(t).exists()]
    if missing:
        raise InvalidInput(
            f"No such file or folder: {', '.join(missing)}.",
            "Give a module folder, a folder of modules or a file inside a module.",
        )


def _nothing_found(targets: list[str]) -> int:
    """Files outside every module (setup.py from a pre-commit hook) are nothing to check; a
    folder without modules is a usage error."""
    if targets and all(not Path(t).is_dir() for t in targets):
        print("ok: no file inside an Odoo module, nothing to check")
        return 0
    looked = ", ".join(targets) if targets else f"{Path.cwd()} (the current folder)"
    raise InvalidInput(
        f"No Odoo module found in {looked} (nor in its subfolders, {SEARCH_DEPTH} levels down).",
        "Give a module folder, a folder of modules or a file inside a module, or pass --addons-path.",
    )


def _select(args: argparse.Namespace, project: LintProject) -> list[Addon]:
    addons = project.select(args.targets)
    if args.changed:
        _, paths = changed_files(Path.cwd(), args.base)
        wanted = {a.name for a in changed_modules(project, paths, with_dependents=args.with_dependents)}
        addons = [a for a in addons if a.name in wanted]
        picked = ", ".join(sorted(a.name for a in addons)) or "none"
        print(
            f"changed since {args.base or 'the default base'}: {len(addons)} module(s): {picked}",
            file=sys.stderr,
        )
    if args.shard:
        addons = shard(addons, args.shard)
    return addons
