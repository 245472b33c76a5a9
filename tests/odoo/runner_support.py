"""Fixtures for the runner, template-cache and tool tests, imported by those tests.

Every test gets its own database prefix, so parallel runs and other engineers' databases are
never touched, and teardown asserts that no database with that prefix is left behind.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from odoo_tools.errors import DatabaseError
from odoo_tools.runs import ValidationResult
from odoo_tools.runs._pg import Pg, PgParams
from tests.services import skip_missing_service

REPO = Path(__file__).resolve().parents[2]
STUB_ODOO_BIN = REPO / "fixtures" / "odoo_stub" / "odoo-bin"


def _postgres_or_skip() -> Pg:
    pg = Pg(PgParams.resolve(), prefix=f"assista_t{secrets.token_hex(3)}_")
    try:
        pg.server_info()
    except DatabaseError as exc:  # pragma: no cover - depends on the machine
        skip_missing_service(f"PostgreSQL not reachable: {exc}")
    return pg


@pytest.fixture
def pg() -> Iterator[Pg]:
    """A Pg bound to a fresh prefix; fails the test if any database with it is left over."""
    helper = _postgres_or_skip()
    yield helper
    join_spare_threads()
    leftovers = helper.list_ours()
    for name in leftovers:
        helper.drop(name)
    assert leftovers == [], f"databases left behind: {leftovers}"


@pytest.fixture
def stub_odoo_bin() -> Path:
    if not STUB_ODOO_BIN.is_file():  # pragma: no cover - a broken checkout
        skip_missing_service(f"stand-in odoo-bin not found at {STUB_ODOO_BIN}")
    return STUB_ODOO_BIN


def processes_mentioning(text: str) -> list[int]:
    """Pids of live processes whose command line contains ``text`` (e.g. our db prefix)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if text.encode() in cmdline:
                found.append(int(entry))
    return found


def join_spare_threads() -> None:
    """Wait for OdooRunner's background chores (spare clones, drops) to finish."""
    for thread in threading.enumerate():
        if thread.name.startswith("assista-bg-"):
            thread.join()


def verdict(result: ValidationResult) -> tuple[object, ...]:
    """What must not depend on the path a run took (warm or cold): module states, findings
    (kind, file, line, severity) and tests."""
    return (
        result.ok,
        [(m.module, m.state, m.ok) for m in result.modules],
        sorted((f.kind, f.path or "", f.line or 0, f.severity) for f in result.findings),
        sorted((t.name, t.status, t.path or "", t.line or 0) for t in result.tests),
    )
