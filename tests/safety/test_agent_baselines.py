"""A model in auto-edit cannot record its own findings as known: baselines are protected paths and
``save_lint_baseline`` always asks (outside yolo). Through the real CLI, without a terminal, so
whatever asks is denied; before, each of these calls ran.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.loop.protected import ProtectedPaths
from odoo_tools.workspace import Workspace
from tests.safety.conftest import ANCHOR, BOOK, RunAgent, StartServer, call, edit

BASELINE = {"version": 1, "note": "known findings", "fingerprints": {"0123456789abcdef01234567": 1}}


def _results(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["tool_call_id"]: e for e in events if e["type"] == "tool_result"}


def test_auto_edit_asks_before_save_lint_baseline_whatever_the_file_name(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server(
        [{"tool_calls": [call("b1", "save_lint_baseline", {"baseline": "notes/known.json"})]}, {"text": "ok"}]
    )
    _, events, _ = run_agent(server, addons, "silence the linter", "--mode", "auto-edit", "--no-validate")
    result = _results(events)["b1"]
    assert result["is_error"] and "protected" in result["text"]
    assert not (addons / "notes" / "known.json").exists()


@pytest.mark.parametrize("name", ["ci/lint-known.json", ".assista-baseline.json", "ci/baseline.json"])
def test_auto_edit_asks_before_changing_a_baseline_file(
    run_agent: RunAgent, model_server: StartServer, addons: Path, name: str
) -> None:
    baseline = addons / name
    baseline.parent.mkdir(exist_ok=True)
    if name == "ci/lint-known.json":  # any name CI passes to --baseline: known by its content
        baseline.write_text(json.dumps(BASELINE, indent=1), encoding="utf-8")
    before = baseline.read_bytes() if baseline.exists() else None
    known = {**BASELINE, "fingerprints": {"f" * 24: 1, "0" * 24: 9}}
    server = model_server(
        [
            {
                "tool_calls": [
                    call("w1", "write_file", {"path": name, "content": json.dumps(known)}),
                    edit("e1", BOOK, ANCHOR, ANCHOR + "    edition = fields.Integer()\n"),
                ]
            },
            {"text": "done"},
        ]
    )
    _, events, _ = run_agent(server, addons, "adopt", "--mode", "auto-edit", "--no-validate")
    results = _results(events)
    assert results["w1"]["is_error"] and "protected" in results["w1"]["text"]
    assert (baseline.read_bytes() if baseline.exists() else None) == before
    assert not results["e1"]["is_error"]  # an ordinary edit still runs without asking


def test_baseline_names_and_contents_are_protected_but_other_json_is_not(tmp_path: Path) -> None:
    (tmp_path / "data.json").write_text('{"rows": []}', encoding="utf-8")
    (tmp_path / "ci.json").write_text(json.dumps(BASELINE), encoding="utf-8")
    guard = ProtectedPaths(Workspace([tmp_path]))
    names = ["data.json", "ci.json", "new.json", "x/Lint-Baseline.json", "models/baseline.py"]
    assert guard.among(names) == ["ci.json", "x/Lint-Baseline.json"]


def test_a_folder_or_a_fifo_written_over_is_judged_without_reading_it(tmp_path: Path) -> None:
    (tmp_path / "examples").mkdir()
    os.mkfifo(tmp_path / "pipe.json")
    guard = ProtectedPaths(Workspace([tmp_path]))
    assert guard.among(["examples", "pipe.json"]) == []
