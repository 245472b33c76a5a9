"""Fixtures for the agent safety-net tests: the scripted model server (from tests/agent) and a CLI runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.cli import main
from fixtures.model_server import ScriptedModelServer
from tests.agent.conftest import StartServer, model_env, model_server
from tests.agent.loop_support import call, tool_messages

__all__ = ["StartServer", "call", "model_env", "model_server", "tool_messages"]

RunAgent = Callable[..., tuple[int, list[dict[str, Any]], str]]
BOOK = "library_base/models/library_book.py"
ANCHOR = "    pages = fields.Integer()\n"


def edit(call_id: str, path: str, old: str, new: str) -> dict[str, Any]:
    return call(call_id, "edit_file", {"path": path, "edits": [{"old_text": old, "new_text": new}]})


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` (bytes and mode), .git and caches left out."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and ".git/" not in rel + "/" and "__pycache__" not in rel:
            files[rel] = (path.read_bytes(), path.stat().st_mode)
    return files


@pytest.fixture
def run_agent(isolated_env: Path, model_server: StartServer, capsys: pytest.CaptureFixture[str]) -> RunAgent:
    """``run_agent(server, addons, task, *flags) -> (exit code, events, stderr)`` via the real CLI."""

    def run(server: ScriptedModelServer, addons: Path, task: str, *flags: str) -> Any:
        argv = ["run", task, "--addons-path", str(addons), "--model", server.litellm_model]
        argv += ["--api-base", server.api_base, "--events", "jsonl", *flags]
        code = main(argv)
        captured = capsys.readouterr()
        events = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
        return code, events, captured.err

    return run


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
