"""``assista-odoo check``'s output side: what adoption hides (--new-only, --baseline), the paths a
CI system shows, the report or its summary, and a progress bar on a terminal."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assista_mcp.cli.output import write_output
from odoo_tools.findings import Finding
from odoo_tools.lint import AdoptionOptions, LintProject, adopt
from odoo_tools.lint.reporters import Report, render

Advance = Callable[[str, int], None]


def adopted(
    args: argparse.Namespace, project: LintProject, findings: list[Finding], notes: list[str]
) -> list[Finding]:
    """--new-only and --baseline: what is left to report, with a note on what was hidden."""
    options = AdoptionOptions(
        baseline=Path(args.baseline) if args.baseline else None,
        update_baseline=args.update_baseline,
        new_only=args.new_only,
        base=args.base,
        repositories=(Path.cwd(),),
    )
    result = adopt(project, findings, options)
    notes.extend(result.notes)
    return result.findings


def display_path(project: LintProject) -> Callable[[Finding], str]:
    """Findings hold root-relative paths; CI wants them relative to the working directory."""
    cwd = Path.cwd().resolve()
    shown: dict[tuple[str, str], str] = {}  # thousands of findings share a few hundred files

    def display(finding: Finding) -> str:
        addon = project.addon_set.addons.get(finding.module)
        if not finding.path or addon is None:
            return finding.path
        where = (finding.module, finding.path)
        if where not in shown:
            full = addon.root / finding.path
            try:
                shown[where] = full.relative_to(cwd).as_posix()
            except ValueError:
                shown[where] = full.as_posix()
        return shown[where]

    return display


def emit(args: argparse.Namespace, report: Report) -> None:
    text = render(args.format, report)
    if args.output:
        write_output(args.output, text)
        summary = report.summary
        verdict = "FAILED" if report.failed else "INCOMPLETE" if report.incomplete else "ok"
        print(
            f"{verdict}: {summary.errors} error(s), {summary.warnings} warning(s), {summary.infos} info "
            f"in {len(report.modules)} module(s); {args.format} report written to {args.output}"
        )
    else:
        sys.stdout.write(text)


class progress:
    """A rich progress bar on an interactive terminal; nothing in CI or when piped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> Advance:
        interactive = sys.stderr.isatty() and os.environ.get("CI", "").lower() not in ("true", "1")
        if not interactive or self.total == 0:
            return lambda what, count: None
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.start()
        task = self.bar.add_task("checking", total=self.total)
        return lambda what, count: self.bar.update(task, advance=count, description=what)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
