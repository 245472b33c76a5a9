"""Plain text for people: one line per finding with its hint, grouped by module, then a total.

Module, file and version names and the messages quoting them come from the repository: each line
is shown with its control characters escaped (an ESC sequence writing the terminal's clipboard or
hiding text, a BEL, a CR or newline forging a line), as migrate's report and usage errors are."""

from __future__ import annotations

from itertools import groupby

from odoo_tools.lint.reporters._base import Report
from odoo_tools.safe_text import escape_controls


def render(report: Report) -> str:
    lines: list[str] = []
    for module, group in groupby(report.findings, key=lambda f: f.module):
        lines.append(f"{module or '(project)'}")
        for finding in group:
            lines.append(
                f"  {report.where(finding)}: {finding.severity} [{finding.source} {finding.rule()}] "
                f"{finding.message}"
            )
            if finding.hint:
                lines.append(f"      hint: {finding.hint}")
    for module, reason in sorted(report.skipped.items()):
        lines.append(f"skipped {module}: {reason}")
    lines.extend(f"note: {note}" for note in report.notes)
    summary = report.summary
    verdict = "FAILED" if report.failed else "INCOMPLETE" if report.incomplete else "ok"
    lines.append(
        f"{verdict}: {len(report.modules)} module(s), {summary.errors} error(s), "
        f"{summary.warnings} warning(s), {summary.infos} info; fail-on={report.fail_on}"
        + (f"; Odoo {report.series}" if report.series else "")
        + f" ({report.seconds:.1f}s)"
    )
    return "\n".join(escape_controls(line) for line in lines) + "\n"
