"""Per-test results from Odoo's test runner lines (``Starting``, ``FAIL:``, ``ERROR:``, summaries)."""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._failures import decisive_line
from odoo_tools.odoo_log._paths import PathMapper
from odoo_tools.odoo_log._records import LogRecord
from odoo_tools.odoo_log._traceback import find_traceback

TestStatus = Literal["pass", "fail", "error"]

TEST_LOGGER_RE = re.compile(r"^odoo\.addons\.(?P<module>[\w-]+)\.tests\b")
STARTING_RE = re.compile(r"^Starting (?P<cls>[\w.]+)\.(?P<method>\w+) \.\.\.")
OUTCOME_RE = re.compile(
    r"^(?P<flavour>FAIL|ERROR): (?:Subtest )?(?P<cls>[\w.]+)\.(?P<method>\w+)(?P<rest>.*)$"
)
CLASS_ERROR_RE = re.compile(r"^(?P<flavour>FAIL|ERROR): (?P<method>\w+) \((?P<path>[\w.]+)\.(?P<cls>\w+)\)")
MODULE_SUMMARY_RE = re.compile(
    r"^Module (?P<module>[\w-]+): (?P<f>\d+) failures, (?P<e>\d+) errors of (?P<n>\d+) tests"
)
TOTAL_RE = re.compile(r"^(?P<f>\d+) failed, (?P<e>\d+) error\(s\) of (?P<n>\d+) tests")


class TestResult(BaseModel):
    """One test method's outcome."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    module: str
    test_class: str
    method: str
    status: TestStatus
    message: str = Field(default="", description="The failure or error line")
    path: str = Field(default="", description="File relative to its addons root")
    line: int | None = None
    traceback: str = ""

    @property
    def name(self) -> str:
        return f"{self.test_class}.{self.method}"


class TestCounts(BaseModel):
    __test__: ClassVar[bool] = False

    failures: int = 0
    errors: int = 0
    tests: int = 0


class TestCollector:
    """Feed it records in order; it keeps one result per test, the last outcome winning."""

    __test__: ClassVar[bool] = False

    def __init__(self, mapper: PathMapper) -> None:
        self.mapper = mapper
        self.results: dict[tuple[str, str, str], TestResult] = {}
        self.per_module: dict[str, TestCounts] = {}
        self.total: TestCounts | None = None

    def feed(self, record: LogRecord) -> bool:
        """True when the record was about tests (so nobody else reports it)."""
        message = record.message
        summary = MODULE_SUMMARY_RE.match(message)
        if summary and record.logger == "odoo.modules.loading":
            self.per_module[summary["module"]] = _counts(summary)
            return True
        total = TOTAL_RE.match(message)
        if total and record.logger == "odoo.tests.result":
            self.total = _counts(total)
            return True
        logger = TEST_LOGGER_RE.match(record.logger)
        if logger is None:
            return False
        return self._feed_test_record(logger["module"], record)

    def _feed_test_record(self, module: str, record: LogRecord) -> bool:
        started = STARTING_RE.match(record.message)
        if started:
            key = (module, started["cls"], started["method"])
            self.results.setdefault(
                key, TestResult(module=module, test_class=key[1], method=key[2], status="pass")
            )
            return True
        outcome = OUTCOME_RE.match(record.message) or CLASS_ERROR_RE.match(record.message)
        if outcome is None:
            return False
        status: TestStatus = "fail" if outcome["flavour"] == "FAIL" else "error"
        result = TestResult(module=module, test_class=outcome["cls"], method=outcome["method"], status=status)
        tb = find_traceback(record.lines, self.mapper)
        if tb is not None:
            result.message = decisive_line(tb)
            result.traceback = tb.trimmed()
            own = [f for f in tb.addon_frames() if f.addon and f.addon.module == module] or tb.addon_frames()
            if own and own[-1].addon is not None:
                result.path, result.line = own[-1].addon.rel, own[-1].line
        self.results[(module, result.test_class, result.method)] = result
        return True

    def findings(self) -> list[Finding]:
        return [_finding(r) for r in self.results.values() if r.status != "pass"]


def _counts(match: re.Match[str]) -> TestCounts:
    return TestCounts(failures=int(match["f"]), errors=int(match["e"]), tests=int(match["n"]))


def _finding(result: TestResult) -> Finding:
    kind = kinds.TEST_FAILURE if result.status == "fail" else kinds.TEST_ERROR
    return Finding(
        source="odoo",
        code=kind,
        symbol=result.name,
        module=result.module,
        path=result.path,
        line=result.line,
        message=f"{result.name}: {result.message}" if result.message else result.name,
        hint=kinds.HINTS[kind],
        kind=kind,
        traceback=result.traceback,
    )
