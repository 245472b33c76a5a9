"""A real Ctrl-C (SIGINT) on ``assista-odoo run`` while a tool of a stdio MCP server is running."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.loop.sessions import SessionStore
from fixtures.model_server import TEST_API_KEY, TEST_MODEL, ScriptedModelServer
from tests.agent.loop_support import call, tool_messages

REPO = Path(__file__).resolve().parents[2]
StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]


def _agent(server: ScriptedModelServer, addons: Path, notes: Path, home: Path, *extra: str) -> list[str]:
    tools = f"tools={shlex.quote(sys.executable)} -m tests.agent.tool_servers {shlex.quote(str(notes))}"
    return [
        sys.executable, "-m", "assista_mcp", "run", *extra, "--addons-path", str(addons),
        "--model", TEST_MODEL, "--api-base", server.api_base, "--mode", "yolo",
        "--events", "jsonl", "--mcp-server", tools,
    ]  # fmt: skip


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update(ASSISTA_HOME=str(home), OPENAI_API_KEY=TEST_API_KEY, LITELLM_LOCAL_MODEL_COST_MAP="True")
    return env


@pytest.mark.slow
def test_ctrl_c_cancels_the_tool_keeps_the_session_and_resume_works(
    model_server: StartServer, addons: Path, tmp_path: Path
) -> None:
    notes, home = tmp_path / "notes", tmp_path / "home"
    notes.mkdir()
    server = model_server([{"tool_calls": [call("s1", "tools__slow_task", {"seconds": 120})]}])
    argv = _agent(server, addons, notes, home, "install the module")
    proc = subprocess.Popen(
        argv, cwd=REPO, env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while not (notes / "slow.started").exists():
            assert proc.poll() is None and time.monotonic() < deadline, (
                proc.stderr.read() if proc.stderr else ""
            )
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    events = [json.loads(line) for line in out.splitlines()]
    assert events[-1]["type"] == "end" and events[-1]["data"]["status"] == "interrupted"
    # MCP cancellation reached the tool in the other process.
    deadline = time.monotonic() + 30
    while not (notes / "slow.cancelled").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (notes / "slow.cancelled").exists()
    store = SessionStore.in_home(home)
    info = store.latest()
    assert info is not None and info.status == "interrupted"
    assert "cancelled by the user" in store.messages(info.id)[-1]["content"]

    server.add_steps({"text": "It was interrupted; shall I retry?"})
    resumed = subprocess.run(
        _agent(server, addons, notes, home, "what happened?", "--continue"),
        cwd=REPO, env=_env(home), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "cancelled by the user" in tool_messages(server.requests[-1])["s1"]
    assert server.requests[-1]["messages"][-1]["content"] == "what happened?"
