"""Skips for a missing service (PostgreSQL, the stand-in odoo-bin); the hook making them failures in CI.

A developer without PostgreSQL still gets a useful run: the database tests skip. In CI (``CI`` set to
anything but ``0``/``false``/empty) such a skip would let the job go green with every database test
unrun, so the hook below turns it into a failure. Opt-in tests (a real Odoo, a live model) skip for a
different reason, with their own message, and stay skips everywhere.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import NoReturn

import pytest

MISSING_SERVICE = "service missing:"


def skip_missing_service(what: str) -> NoReturn:
    """Skip this test because ``what`` (a service the suite needs) is unavailable; a failure in CI."""
    pytest.skip(f"{MISSING_SERVICE} {what}")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not (report.skipped and in_ci()):
        return
    reason = _skip_reason(report)
    if MISSING_SERVICE in reason:
        report.outcome = "failed"
        report.longrepr = (
            f"{reason.removeprefix('Skipped: ')}\n"
            "CI is set: a test may not skip because a service is missing "
            "(run scripts/setup-tests.sh, or point PGHOST/PGPORT/PGUSER at a server where this role may "
            "create databases)"
        )
