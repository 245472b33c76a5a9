"""Validate and fix with an Odoo configured (the stand-in odoo-bin, real PostgreSQL): test_module runs too."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads, pg, stub_odoo_bin
from tests.safety.conftest import RunAgent, StartServer, edit

__all__ = ["pg", "stub_odoo_bin"]

TESTS = "library_loan/tests/test_library_loan.py"
BROKEN_TEST = "\n    def test_broken(self):\n        raise ValueError('boom')\n"


def _odoo_flags(stub: Path, pg: Pg, monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    monkeypatch.setenv("ASSISTA_DB_PREFIX", pg.prefix)
    return ("--odoo-bin", str(stub), "--odoo-python", sys.executable)


def _report(events: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = next(e for e in events if e["tool_name"] == "validation")["data"]
    return data


def test_failing_odoo_tests_go_back_to_the_model_until_fixed(
    run_agent: RunAgent,
    model_server: StartServer,
    addons: Path,
    pg: Pg,
    stub_odoo_bin: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = (addons / TESTS).read_text(encoding="utf-8")
    server = model_server(
        [
            {"tool_calls": [edit("e1", TESTS, original, original + BROKEN_TEST)]},
            {"text": "Added a test."},
            {"tool_calls": [edit("e2", TESTS, original + BROKEN_TEST, original)]},
            {"text": "Removed the broken test."},
        ]
    )
    flags = ("--mode", "yolo", *_odoo_flags(stub_odoo_bin, pg, monkeypatch))
    code, events, _ = run_agent(server, addons, "add a test", *flags)
    assert code == 0
    follow_up = [m for m in server.requests[2]["messages"] if m["role"] == "user"][-1]["content"]
    assert "test_broken" in follow_up and "test_module" in follow_up
    report = _report(events)
    assert report["passed"] is True and report["fix_rounds"] == 1
    assert report["validated"] == ["check_module:library_loan", "test_module:library_loan"]
    join_spare_threads()
    for name in pg.list_ours():  # the dependency templates this run cached
        pg.drop(name)


def test_installs_wait_for_approval_like_any_call(
    run_agent: RunAgent,
    model_server: StartServer,
    addons: Path,
    pg: Pg,
    stub_odoo_bin: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = (addons / TESTS).read_text(encoding="utf-8")
    server = model_server(
        [{"tool_calls": [edit("e1", TESTS, original, original + "# more tests later\n")]}, {"text": "ok"}]
    )
    flags = ("--mode", "auto-edit", *_odoo_flags(stub_odoo_bin, pg, monkeypatch))
    code, events, _ = run_agent(server, addons, "touch the tests", *flags)
    assert code == 0 and len(server.requests) == 2
    report = _report(events)
    assert report["validated"] == ["check_module:library_loan"]
    assert len(report["skipped"]) == 1 and report["skipped"][0].startswith("test_module: not approved")
    assert pg.list_ours() == []  # no Odoo ran
