"""SARIF 2.1.0 (GitHub code scanning and others): one run per checker, rules from the codes."""

from __future__ import annotations

import json
from typing import Any

from odoo_tools.findings import Finding
from odoo_tools.lint.reporters._base import Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
TOOL_URIS = {
    "pylint": "https://github.com/OCA/pylint-odoo",
    "flake8": "https://flake8.pycqa.org",
    "oca-hooks": "https://github.com/OCA/odoo-pre-commit-hooks",
}
DEFAULT_URI = "https://pypi.org/project/assista-odoo/"


def render(report: Report) -> str:
    sources = sorted({f.source for f in report.findings} | {c for c in report.checks if c != "static"})
    if "static" in report.checks:
        sources = sorted(set(sources) | {"static"})
    runs = [_run(source, [f for f in report.findings if f.source == source], report) for source in sources]
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": runs}) + "\n"


def _run(source: str, findings: list[Finding], report: Report) -> dict[str, Any]:
    rules: dict[str, dict[str, Any]] = {}
    for finding in findings:
        rules.setdefault(finding.code, _rule(finding))
    rule_ids = list(rules)
    return {
        "tool": {
            "driver": {
                "name": source,
                "informationUri": TOOL_URIS.get(source, DEFAULT_URI),
                "rules": list(rules.values()),
            }
        },
        "results": [_result(f, rule_ids.index(f.code), report) for f in findings],
    }


def _rule(finding: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {"id": finding.code, "shortDescription": {"text": finding.symbol or finding.code}}
    if finding.symbol:
        rule["name"] = finding.symbol
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
        if finding.line is not None and finding.line >= 1:
            region: dict[str, Any] = {"startLine": finding.line}
            if finding.column is not None and finding.column >= 1:
                region["startColumn"] = finding.column
            location["region"] = region
        result["locations"] = [{"physicalLocation": location}]
    return result
