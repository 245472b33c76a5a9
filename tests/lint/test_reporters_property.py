"""Every format tells the same story: each finding that decides the exit code is in each report.

Findings come from every source the gate knows (the linters, ruff standing in for flake8, our own
checks, Odoo's install and test runs) and from modules inside and outside the checked set.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import metadata

from hypothesis import given, settings
from hypothesis import strategies as st

from odoo_tools.findings import Finding
from odoo_tools.lint.reporters import FORMATS, Report, render

MODULES = ["library_base", "library_loan"]
SOURCES = ["pylint", "flake8", "ruff", "oca-hooks", "static", "manifest", "addons", "index", "odoo"]
LINT_CHECKS = ("pylint", "flake8", "oca-hooks", "static")
EXPECTED_VERSIONS = {"ruff": metadata.version("ruff"), "odoo": "18.0", "flake8": metadata.version("flake8")}
# Text that must survive each format's escaping (XML, workflow commands, JSON).
NOISE = st.text(alphabet="ab <>&%:,\n\r\"'é", max_size=12)


@st.composite
def reports(draw: st.DrawFn) -> Report:
    lint = draw(st.lists(st.sampled_from(LINT_CHECKS), unique=True, max_size=4))
    odoo = draw(st.sampled_from([[], ["odoo-install"], ["odoo-test"]]))
    count = draw(st.integers(min_value=0, max_value=12))
    findings = [
        Finding(
            source=draw(st.sampled_from(SOURCES)),
            code=draw(st.sampled_from(["E1", "W8150", "F821", "odoo-test-failed", "data-file-missing"])),
            severity=draw(st.sampled_from(["error", "warning", "info"])),
            module=draw(st.sampled_from([*MODULES, "elsewhere", ""])),
            path=draw(st.sampled_from(["", "models/book.py", "views/a,b:c.xml"])),
            line=draw(st.none() | st.integers(min_value=0, max_value=500)),
            message=f"token{index}x {draw(NOISE)}",
        )
        for index in range(count)
    ]
    return Report(
        findings=findings,
        modules=MODULES,
        checks=(*lint, *odoo),
        fail_on=draw(st.sampled_from(["error", "warning", "info"])),
        series="18.0",
    )


def _token(finding: Finding) -> str:
    return finding.message.split(" ", 1)[0]


def _in_text(text: str, token: str) -> bool:
    return any(token in line for line in text.splitlines())


def _in_json(text: str, token: str) -> bool:
    return any(_token_of(f["message"]) == token for f in json.loads(text)["findings"])


def _in_junit_failure(text: str, token: str) -> bool:
    root = ET.fromstring(text)
    return any(token in (failure.text or "") for failure in root.iter("failure"))


def _in_sarif(text: str, token: str) -> bool:
    runs = json.loads(text)["runs"]
    return any(_token_of(r["message"]["text"]) == token for run in runs for r in run["results"])


def _in_github(text: str, token: str) -> bool:
    return any(line.startswith("::") and f"::{token} " in line for line in text.splitlines())


def _token_of(message: str) -> str:
    return message.split(" ", 1)[0]


@settings(max_examples=300, deadline=None)
@given(reports())
def test_every_finding_that_fails_the_run_is_in_every_format(report: Report) -> None:
    assert set(FORMATS) == {"text", "json", "junit", "sarif", "github"}
    out = {fmt: render(fmt, report) for fmt in FORMATS}
    blocking = [f for f in report.findings if report.blocking(f)]
    for finding in blocking:
        token = _token(finding)
        assert _in_text(out["text"], token), ("text", finding)
        assert _in_json(out["json"], token), ("json", finding)
        assert _in_junit_failure(out["junit"], token), ("junit", finding)
        assert _in_sarif(out["sarif"], token), ("sarif", finding)
        assert _in_github(out["github"], token), ("github", finding)
    # The verdict agrees too: a failed run has failing JUnit cases, a passing one none.
    suites = ET.fromstring(out["junit"])
    assert (int(suites.get("failures", "0")) > 0) == report.failed == bool(blocking)
    assert json.loads(out["json"])["failed"] == report.failed


@settings(max_examples=100, deadline=None)
@given(reports())
def test_sarif_runs_are_tools_that_ran_or_found_something(report: Report) -> None:
    runs = json.loads(render("sarif", report))["runs"]
    names = [run["tool"]["driver"]["name"] for run in runs]
    assert len(names) == len(set(names))
    for run in runs:
        driver = run["tool"]["driver"]
        assert run["results"] or driver["name"] in report.tools
        assert not driver["name"].startswith("odoo-")  # a check's name is not a tool's
        # each tool reports its own version, never ours in its place
        assert driver.get("version") == EXPECTED_VERSIONS.get(driver["name"], driver.get("version"))
