"""``parse_odoo_log``: a whole Odoo log in, findings / test results / loaded modules out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._failures import LoadContext, finding_from_traceback
from odoo_tools.odoo_log._notices import warning_finding
from odoo_tools.odoo_log._paths import PathMapper
from odoo_tools.odoo_log._progress import LOADING_MODULE_RE
from odoo_tools.odoo_log._records import LogRecord, split_records
from odoo_tools.odoo_log._testrun import TestCollector, TestCounts, TestResult
from odoo_tools.odoo_log._traceback import find_traceback, parse_traceback

VERSION_RE = re.compile(r"^Odoo version (?P<version>\S+)")
DATA_FILE_RE = re.compile(r"^loading (?P<file>\w+/\S+)$")
TABLES_RE = re.compile(r"^module (?P<module>[\w-]+): creating or updating database tables")
MODULE_DONE_RE = re.compile(r"^Module (?P<module>[\w-]+) loaded in ")
INVALID_NAMES_RE = re.compile(r"^invalid module names, ignored: (?P<names>.*)$")
COULD_NOT_LOAD_RE = re.compile(r"^Couldn't load module (?P<module>[\w-]+)")
MODULE_NAMED_RE = re.compile(r"^[Mm]odule (?P<module>[\w-]+)\b")
PORT_BUSY_RE = re.compile(r"OSError: \[Errno 98\] Address already in use|Address already in use")


class OdooLogReport(BaseModel):
    """What one Odoo run said, structured. Truth about module state still comes from the database."""

    odoo_version: str = ""
    findings: list[Finding] = Field(default_factory=list)
    tests: list[TestResult] = Field(default_factory=list)
    tests_by_module: dict[str, TestCounts] = Field(default_factory=dict)
    tests_total: TestCounts | None = Field(default=None, description="odoo.tests.result summary line")
    loaded_modules: list[str] = Field(default_factory=list, description="'Loading module X (k/N)' lines")
    completed_modules: list[str] = Field(default_factory=list, description="'Module X loaded in' lines")
    invalid_module_names: list[str] = Field(default_factory=list)
    registry_failed: bool = False
    port_busy: bool = False


def parse_odoo_log(text: str, *, roots: Sequence[Path], modules: Sequence[str]) -> OdooLogReport:
    """Parse Odoo's log output (stderr) of one run.

    ``roots`` are our addons roots and ``modules`` the modules under validation; both are used to
    map Odoo's absolute paths (possibly from another machine) to ``<module>/<file>`` + line.
    """
    mapper = PathMapper(roots, modules)
    split = split_records(text)
    report = OdooLogReport()
    ctx = LoadContext()
    collector = TestCollector(mapper)
    for record in split.records:
        if collector.feed(record):
            continue
        _track(record, ctx, report)
        finding = _finding_for(record, ctx, mapper, report)
        if finding is not None:
            report.findings.append(finding)
    _stray_traceback(split.stray_lines, mapper, ctx, report)
    report.port_busy = bool(PORT_BUSY_RE.search(text))
    if report.port_busy and not any(f.kind == kinds.PORT_BUSY for f in report.findings):
        report.findings.append(_port_busy_finding())
    report.tests = list(collector.results.values())
    report.tests_by_module = collector.per_module
    report.tests_total = collector.total
    report.findings.extend(collector.findings())
    report.findings = _dedupe(report.findings)
    return report


def _track(record: LogRecord, ctx: LoadContext, report: OdooLogReport) -> None:
    """Follow what Odoo is doing, so an error without a path still names a module and file."""
    message = record.message
    if match := LOADING_MODULE_RE.match(message):
        ctx.module, ctx.data_file, ctx.loading = match["module"], "", True
        report.loaded_modules.append(match["module"])
    elif match := TABLES_RE.match(message):
        ctx.module = match["module"]
    elif match := DATA_FILE_RE.match(message):
        ctx.data_file = match["file"]
    elif match := MODULE_DONE_RE.match(message):
        ctx.loading = False
        report.completed_modules.append(match["module"])
    elif match := COULD_NOT_LOAD_RE.match(message):
        ctx.module = match["module"]
    elif match := VERSION_RE.match(message):
        report.odoo_version = match["version"]
    elif message.startswith("Failed to load registry"):
        report.registry_failed = True


def _finding_for(
    record: LogRecord, ctx: LoadContext, mapper: PathMapper, report: OdooLogReport
) -> Finding | None:
    match = INVALID_NAMES_RE.match(record.message)
    if match:
        names = [n.strip() for n in match["names"].split(",") if n.strip()]
        report.invalid_module_names.extend(names)
        return _unknown_modules_finding(names)
    if record.has_traceback and record.logger != "py.warnings":
        # ERROR/CRITICAL carry their traceback; on any other record it is an uncaught exception
        # that Python printed to stderr after the last log line (the process died there).
        tb = find_traceback(record.lines, mapper)
        if tb is not None and tb.exc_lines and not PORT_BUSY_RE.search(tb.exc_message):
            finding = finding_from_traceback(tb, ctx, mapper)
            if record.level == "WARNING":  # handled by Odoo (e.g. demo data skipped): not fatal
                finding.severity = "warning"
                finding.message = f"{record.message.strip()}: {finding.message}"
                named = MODULE_NAMED_RE.search(record.message)
                finding.module = finding.module or (named["module"] if named else "")
            return finding
    if record.level == "WARNING" or (record.level == "ERROR" and not record.has_traceback):
        return warning_finding(record, ctx, mapper)
    return None


def _stray_traceback(lines: list[str], mapper: PathMapper, ctx: LoadContext, report: OdooLogReport) -> None:
    """An uncaught exception (before logging starts) prints a bare traceback to stderr."""
    if "Traceback (most recent call last):" not in lines:
        return
    start = len(lines) - 1 - lines[::-1].index("Traceback (most recent call last):")
    tb = parse_traceback(lines[start + 1 :], mapper)
    if tb.exc_lines and not PORT_BUSY_RE.search(tb.exc_message):
        report.findings.append(finding_from_traceback(tb, ctx, mapper))


def _unknown_modules_finding(names: list[str]) -> Finding:
    return Finding(
        source="odoo",
        code=kinds.UNKNOWN_MODULE,
        symbol="invalid-module-names",
        module=names[0] if len(names) == 1 else "",
        message=f"Odoo does not know module(s) {', '.join(names)}: they were ignored, nothing was installed.",
        hint=kinds.HINTS[kinds.UNKNOWN_MODULE],
        kind=kinds.UNKNOWN_MODULE,
    )


def _port_busy_finding() -> Finding:
    return Finding(
        source="odoo",
        code=kinds.PORT_BUSY,
        symbol="OSError",
        message="OSError: [Errno 98] Address already in use (the HTTP port Odoo binds for tests)",
        hint=kinds.HINTS[kinds.PORT_BUSY],
        kind=kinds.PORT_BUSY,
    )


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str, str, int | None, str]] = set()
    unique = []
    for finding in findings:
        key = (finding.kind, finding.module, finding.path, finding.line, finding.message)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return unique
