"""SARIF 2.1.0 (GitHub code scanning and others): one run per checker, rules from the codes."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import metadata
from typing import Any

from odoo_tools import __version__
from odoo_tools.findings import Finding
from odoo_tools.lint.reporters._base import ODOO_SOURCE, Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
TOOL_URIS = {
    "pylint": "https://github.com/OCA/pylint-odoo",
    "flake8": "https://flake8.pycqa.org",
    "ruff": "https://docs.astral.sh/ruff/",
    "oca-hooks": "https://github.com/OCA/odoo-pre-commit-hooks",
    "odoo": "https://github.com/odoo/odoo",
}
# The distribution whose version a run reports; our own checks report ours, Odoo its series.
TOOL_DISTRIBUTIONS = {
    "pylint": "pylint-odoo",
    "flake8": "flake8",
    "ruff": "ruff",
    "oca-hooks": "oca-odoo-pre-commit-hooks",
}
OUR_SOURCES = ("static", "manifest", "addons", "index")
FULL_NAMES = {
    "pylint": "pylint-odoo (via assista-odoo)",
    "flake8": "flake8 (via assista-odoo)",
    "ruff": "ruff (via assista-odoo)",
    "oca-hooks": "OCA odoo-pre-commit-hooks (via assista-odoo)",
    "static": "assista-odoo static cross-file checks",
    "odoo": "Odoo install and tests (odoo-bin, via assista-odoo)",
}


def render(report: Report) -> str:
    # One run per tool that ran, with or without results (a clean run closes earlier alerts), and
    # one per source that found something.
    sources = sorted(set(report.tools) | {f.source for f in report.findings})
    runs = [_run(source, [f for f in report.findings if f.source == source], report) for source in sources]
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": runs}) + "\n"


def _run(source: str, findings: list[Finding], report: Report) -> dict[str, Any]:
    rules: dict[str, dict[str, Any]] = {}
    for finding in findings:
        rules.setdefault(finding.code, _rule(finding))
    rule_ids = list(rules)
    driver: dict[str, Any] = {"name": source, "fullName": FULL_NAMES.get(source, source)}
    version = report.series if source == ODOO_SOURCE else tool_version(source)
    if version:  # Odoo's series when known; never another tool's version in its place
        driver.update(version=version, semanticVersion=version)
    driver["rules"] = list(rules.values())
    if source in TOOL_URIS:  # ours has no public page to point at: say nothing rather than a dead link
        driver["informationUri"] = TOOL_URIS[source]
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "results": [_result(f, rule_ids.index(f.code), report) for f in findings],
    }
    if report.incomplete:  # the run did not do all it was asked: say so where SARIF readers look
        notifications = [{"level": "error", "message": {"text": line}} for line in report.incomplete]
        run["invocations"] = [{"executionSuccessful": False, "toolExecutionNotifications": notifications}]
    return run


@cache
def tool_version(source: str) -> str | None:
    """The version of the tool behind ``source``'s findings (ours for our own checks), None when
    it cannot be known here."""
    if source in OUR_SOURCES:
        return __version__
    try:
        return metadata.version(TOOL_DISTRIBUTIONS[source])
    except (KeyError, metadata.PackageNotFoundError):
        return None


def rule_name(finding: Finding) -> str | None:
    """A readable name distinct from the opaque id (SARIF1001): the symbol in PascalCase."""
    words = re.split(r"[^A-Za-z0-9]+", finding.symbol or finding.code)
    name = "".join(word[:1].upper() + word[1:] for word in words if word)
    return name if name and name != finding.code else None


def _rule(finding: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {"id": finding.code, "shortDescription": {"text": finding.symbol or finding.code}}
    if name := rule_name(finding):
        rule["name"] = name
    if finding.hint:
        rule["help"] = {"text": finding.hint}
    return rule


def _result(finding: Finding, rule_index: int, report: Report) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVEL[finding.severity],
        "message": {"text": finding.message + (f" Hint: {finding.hint}" if finding.hint else "")},
        "properties": {"module": finding.module},
    }
    path = report.display_path(finding)
    if path:
        location: dict[str, Any] = {"artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"}}
        # A finding about a whole file points at its first line: code scanning shows no result
        # without a region (SARIF2017).
        line = finding.line if finding.line is not None and finding.line >= 1 else 1
        region: dict[str, Any] = {"startLine": line}
        if finding.line and finding.column is not None and finding.column >= 1:
            region["startColumn"] = finding.column
        location["region"] = region
        result["locations"] = [{"physicalLocation": location}]
    return result
