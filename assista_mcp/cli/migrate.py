"""CLI: ``assista-odoo migrate PATH... --to SERIES``: move modules to the next Odoo series.

A dry run by default (the unified diff and what is left to do); ``--write`` applies it,
``--commit`` applies it with one commit per module and step (OCA's ``[MIG] module: Migration
to 18.0``); ``--prove`` then installs each module and runs its own tests on the target series'
real Odoo (the configured odoo-bin).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assista_mcp.cli.common import add_migrate_flags, add_odoo_flags, add_project_flags, settings_from_args
from assista_mcp.cli.output import add_format_flag, add_output_flag, emit
from assista_mcp.config.odoo_config import runner_config
from odoo_tools.errors import InvalidInput
from odoo_tools.safe_text import escape_controls

if TYPE_CHECKING:  # imported when `migrate` runs: libcst costs every other command's start
    from odoo_tools.migrate import MigrationReport, ModuleMigration, Proof, ProofAddons, StepOutcome
    from odoo_tools.runs import OdooRunner, RunnerConfig


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "migrate",
        help="move modules to a newer Odoo series (dry run by default)",
        description=(
            "Rewrite modules for a newer Odoo series, one series at a time, keeping the code as it "
            "was written: the Odoo source's own upgrade_code scripts (when --odoo-bin/--odoo-path "
            "is that series), then our rules per step. Exit 0 when nothing is left to fix (and, with "
            "--prove, every module installs and passes its tests), 1 otherwise, 2 on bad usage."
        ),
    )
    parser.add_argument(
        "paths", nargs="+", type=Path, metavar="PATH", help="module folders or folders of modules"
    )
    parser.add_argument("--to", required=True, metavar="SERIES", help="the target series, e.g. 18.0")
    parser.add_argument(
        "--from", dest="from_series", metavar="SERIES", help="the modules' series when their version lacks it"
    )
    applying = parser.add_mutually_exclusive_group()
    applying.add_argument("--write", action="store_true", help="apply the changes (default: only show them)")
    applying.add_argument("--commit", action="store_true", help="apply and commit each module and step (git)")
    parser.add_argument(
        "--prove", action="store_true", help="then install and test each module on the target series' Odoo"
    )
    parser.add_argument(
        "--no-diff", action="store_true", help="print the summary without the diff (also in JSON)"
    )
    add_format_flag(parser, "the report")
    add_output_flag(parser)
    add_project_flags(parser)
    add_odoo_flags(parser)
    add_migrate_flags(parser)
    parser.set_defaults(func=run_migrate)


def run_migrate(args: argparse.Namespace) -> int:
    if args.prove and not (args.write or args.commit):
        raise InvalidInput("--prove installs the migrated files: it needs --write or --commit.")
    from odoo_tools.migrate import migrate, parse_series, proof_addons

    settings = settings_from_args(args)
    sources = settings.migration_sources()
    with ExitStack() as stack:
        proving: tuple[OdooRunner, ProofAddons, Sequence[Path]] | None = None
        if args.prove:
            config = runner_config(settings)
            links = stack.enter_context(proof_addons())
            runner = _target_runner(config, links, parse_series(args.to))
            stack.callback(_stop, runner)
            proving = (runner, links, config.addons_paths)
        report = migrate(
            args.paths,
            args.to,
            from_series=args.from_series,
            write=args.write,
            commit=args.commit,
            odoo_sources=sources,
        )
        if proving is not None:
            _prove(report, *proving)
    if args.format == "json":
        exclude = {"modules": {"__all__": {"diff"}}} if args.no_diff else None
        emit(report.model_dump_json(indent=2, exclude=exclude), args.output)
    else:
        emit(render(report, diff=not args.no_diff), args.output)
    return 0 if all(_clean(module) for module in report.modules) else 1


def _target_runner(config: RunnerConfig, links: ProofAddons, target: int) -> OdooRunner:
    """The runner of the target series' Odoo, its series checked before anything is written:
    a wrong --odoo-bin is a usage error that leaves the modules as they were. Its addons path is
    ``links`` alone (filled once the modules are migrated), beside Odoo's own addons."""
    from odoo_tools.runs import OdooRunner, find_odoo_bin

    odoo_bin = find_odoo_bin(config.odoo_bin, conf_addons_paths=config.addons_paths)
    proving = replace(config, odoo_bin=odoo_bin, addons_paths=[links.folder], linked_roots=[links.folder])
    runner = OdooRunner(proving)
    try:
        version = asyncio.run(runner.odoo()).version
        if not version.startswith(f"{target}."):
            raise InvalidInput(
                f"the configured Odoo is {version}, not {target}.0",
                hint="Give the target series' odoo-bin with --odoo-bin.",
            )
    except BaseException:
        runner.close()
        raise
    return runner


def _stop(runner: OdooRunner) -> None:
    runner.wait_idle(only="drop-")
    runner.close()


def _prove(report: MigrationReport, runner: OdooRunner, links: ProofAddons, searched: Sequence[Path]) -> None:
    from odoo_tools.migrate import held_back, prove

    async def run_all() -> None:
        odoo = await runner.odoo()
        migrated = {module.module: Path(module.path) for module in report.modules}
        # Where a dependency is looked for, in the order the addons path had before: the configured
        # addons folders, then the folders holding the migrated modules.
        roots = [*searched, *(folder.parent for folder in migrated.values())]
        links.fill(migrated, list(dict.fromkeys(roots)), odoo.core_addons)
        proven: dict[str, Proof] = {}
        for module in report.modules:
            proof = held_back(module.depends, proven)
            if proof is None:
                print(f"  proving {module.module} on Odoo {odoo.version}...", file=sys.stderr)
                proof = await prove(runner, module.module)
            module.proof = proven[module.module] = proof

    asyncio.run(run_all())


def _clean(module: ModuleMigration) -> bool:
    if any(f.severity == "error" for f in module.findings):
        return False
    return module.proof is None or module.proof.verdict == "passed"


def render(report: MigrationReport, *, diff: bool = True) -> str:
    shown: list[str] = []
    if diff:  # the files' text, tabs kept: one line of the diff is one line on the terminal
        for module in report.modules:
            shown += [_visible(line.removesuffix("\r"), keep_tabs=True) for line in module.diff.split("\n")]
            if shown and shown[-1] == "":
                shown.pop()
    lines: list[str] = []
    in_run = {module.module for module in report.modules}
    for module in report.modules:
        if not module.steps:
            lines.append(f"{module.module}: already {module.to_series}, nothing to migrate")
            if module.proof is not None:
                lines += _proof_lines(module, in_run)
            continue
        state = "written" if module.written else "dry run, nothing written"
        lines.append(f"{module.module}: {module.from_series} -> {module.to_series} ({state})")
        single = module.steps[0] if len(module.steps) == 1 else None
        if single is not None:
            lines.append(_applied_line(single, "  "))
        if module.deleted:
            lines.append(f"  removed: {', '.join(module.deleted)}")
        commits = [step.commit[:12] for step in module.steps if step.commit]
        if commits:
            lines.append(f"  commits: {', '.join(commits)}")
        if single is not None:
            lines += _finding_lines(single, "  ")
        for step in module.steps if single is None else ():  # each step's rules and findings
            lines.append(f"  {step.source} -> {step.target}:")
            lines += [_applied_line(step, "    "), *_finding_lines(step, "    ")]
        if module.proof is not None:
            lines += _proof_lines(module, in_run)
    return "\n".join(shown + [_visible(line) for line in lines + _not_done(report) + [_totals(report)]])


def _visible(line: str, *, keep_tabs: bool = False) -> str:
    """``line`` with the control characters a repository's names and files may carry (ESC
    sequences that write the clipboard or hide text, BEL, a CR or newline forging a line) shown
    as escapes, as the agent's terminal shows a model's text."""
    if keep_tabs:
        return "\t".join(escape_controls(part) for part in line.split("\t"))
    return escape_controls(line)


def _applied_line(step: StepOutcome, indent: str) -> str:
    applied = ", ".join(f"{rule} x{count}" for rule, count in sorted(step.rules_applied.items()))
    return f"{indent}rules applied: {applied or 'none'}"


def _finding_lines(step: StepOutcome, indent: str) -> list[str]:
    lines = []
    for finding in step.findings:
        lines.append(f"{indent}{finding.severity}: {finding.location()}: [{finding.code}] {finding.message}")
        if finding.hint:
            lines.append(f"{indent}    hint: {finding.hint}")
    return lines


def _proof_lines(module: ModuleMigration, in_run: set[str]) -> list[str]:
    proof = module.proof
    assert proof is not None
    held = [name for name in proof.blocked_by if name in in_run]
    if held:  # its dependency of this run did not install: it was not run
        return [
            f"  proof: blocked by {', '.join(held)} (migrated in this run, not installed on "
            f"{module.to_series}): not installed nor tested"
        ]
    tests = f", tests {proof.tests_run - proof.tests_failed}/{proof.tests_run} passed"
    if proof.tests_run == 0 and proof.verdict == "tests-failed":
        tests = ", no test ran"  # a test file that failed to load, for one: "0/0 passed" read as fine
    elif proof.tests_run == 0:
        tests = ", it has no tests"
    lines = [f"  proof: {proof.verdict}{tests if proof.installed else ''}"]
    if proof.blocked_by:
        lines.append(f"      missing in {module.to_series}: {', '.join(proof.blocked_by)}")
    if proof.first_failure:
        lines.append(f"      first failure: {proof.first_failure}")
    return lines


def _not_done(report: MigrationReport) -> list[str]:
    """What the run did not do, said once for the modules it concerns rather than per module."""
    unchecked: dict[tuple[str, str, str], list[str]] = {}
    for module in report.modules:
        for step in module.steps:
            for what in step.unchecked:
                unchecked.setdefault((step.source, step.target, what), []).append(module.module)
    lines = [
        f"not checked ({source} -> {target}{_which(names, report)}): {what}"
        for (source, target, what), names in unchecked.items()
    ]
    if lines:
        lines.append(
            "  (the target series' source comes from --odoo-bin or --odoo-path, an older series' from "
            "--from-odoo-path, once per series: 16.0's and 17.0's for a run from 16.0 to 18.0)"
        )
    unproved = [module.module for module in report.modules if module.proof is None and module.steps]
    if unproved:
        lines.append(
            f"not proved{_which(unproved, report)}: not installed nor tested on {report.to_series} "
            f"({'--prove' if report.written else '--write --prove'})"
        )
    return lines


def _which(names: list[str], report: MigrationReport) -> str:
    if len(report.modules) == 1:
        return ""
    return ", every module" if len(names) == len(report.modules) else f", {', '.join(names)}"


def _totals(report: MigrationReport) -> str:
    """One line for the whole run: what a repository of many modules comes to."""
    errors = sum(1 for module in report.modules if any(f.severity == "error" for f in module.findings))
    warnings = sum(1 for module in report.modules if any(f.severity == "warning" for f in module.findings))
    state = "written" if report.written else "dry run"
    total = f"{len(report.modules)} module(s) to {report.to_series} ({state}): {errors} with errors, "
    total += f"{warnings} with warnings"
    verdicts = Counter(module.proof.verdict for module in report.modules if module.proof is not None)
    if verdicts:
        total += "; proof: " + ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items()))
    return total
