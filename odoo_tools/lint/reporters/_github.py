"""GitHub Actions workflow commands: ``::error file=...,line=...::message`` per finding."""

from __future__ import annotations

from odoo_tools.lint.reporters._base import INCOMPLETE, Report

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def render(report: Report) -> str:
    lines = []
    for finding in report.findings:
        props = [f"file={_prop(report.display_path(finding))}"] if report.display_path(finding) else []
        if finding.line is not None:
            props.append(f"line={finding.line}")
            if finding.column is not None:
                props.append(f"col={finding.column}")
        props.append(f"title={_prop(f'{finding.source} {finding.code}')}")
        message = finding.message + (f"\nHint: {finding.hint}" if finding.hint else "")
        lines.append(f"::{LEVEL[finding.severity]} {','.join(props)}::{_data(message)}")
    for module, reason in sorted(report.skipped.items()):
        lines.append(f"::notice title=skipped {_prop(module)}::{_data(reason)}")
    # A check that could not run makes the whole job incomplete: an error annotation, not a notice.
    lines.extend(f"::error title=assista-odoo check incomplete::{_data(line)}" for line in report.incomplete)
    notes = [note for note in report.notes if not note.startswith(INCOMPLETE)]
    lines.extend(f"::notice title=assista-odoo check::{_data(note)}" for note in notes)
    summary = report.summary
    lines.append(
        f"assista-odoo check: {summary.errors} error(s), {summary.warnings} warning(s) "
        f"in {len(report.modules)} module(s)"
    )
    return "\n".join(lines) + "\n"


def _data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(value: str) -> str:
    return _data(value).replace(":", "%3A").replace(",", "%2C")
