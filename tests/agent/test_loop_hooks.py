"""Extension points: hooks see every event, may amend or deny calls, and may keep a turn going."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.toolset import ToolOutcome
from assista_mcp.agent.safety.plugins import Denial, PendingCall
from assista_mcp.agent.terminal.runner import run_turn_interruptible
from fixtures.model_server import ScriptedModelServer
from tests.agent.loop_support import agent, call, tool_messages

pytestmark = pytest.mark.anyio
StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]


class Recorder:
    """A plugin object (see safety/plugins.py): any of the hooks, by name."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.touched: list[set[str]] = []
        self.events: list[str] = []

    def session_start(self, session_id: str) -> None:
        self.calls.append("start")

    def session_end(self, session_id: str) -> None:
        self.calls.append("end")

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        self.calls.append(f"model:{len(messages)}")

    def on_event(self, event: StreamEvent) -> None:
        self.events.append(event.type)
        raise RuntimeError("a broken hook must not break the run")

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        if call.arguments.get("path") == "secret.txt":
            return Denial(reason="secret.txt is off limits")
        if call.name == "write_file":  # amend: everything written is upper case
            return call.model_copy(update={"arguments": {**call.arguments, "content": "AMENDED"}})
        return call

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None:
        self.calls.append(f"result:{call.id}:{result.is_error}")

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        self.touched.append(set(touched_paths))
        return "Validate your change." if len(self.touched) == 1 else None


async def test_hooks_amend_deny_observe_and_continue(model_server: StartServer, tmp_path: Path) -> None:
    server = model_server(
        [
            {
                "tool_calls": [
                    call("w1", "write_file", {"path": "new.txt", "content": "lower"}),
                    call("w2", "write_file", {"path": "secret.txt", "content": "x"}),
                ]
            },
            {"text": "Written."},
            {"text": "Validated."},
        ]
    )
    hooks = Recorder()
    async with agent(server, tmp_path, hooks=hooks) as (loop, events):
        result = await loop.run_turn("write a note")
    assert result.status == "final" and result.text == "Validated."
    assert (tmp_path / "new.txt").read_text(encoding="utf-8") == "AMENDED"
    assert not (tmp_path / "secret.txt").exists()
    assert "off limits" in tool_messages(server.requests[1])["w2"]
    # after_turn saw the written path, and its follow-up became a user message.
    assert hooks.touched == [{"new.txt"}, set()]
    assert server.requests[2]["messages"][-1] == {"role": "user", "content": "Validate your change."}
    assert hooks.calls[0] == "start" and hooks.calls[-1] == "end"
    assert "result:w1:False" in hooks.calls and "result:w2:True" in hooks.calls
    # The raising on_event hook saw every event and the renderer still got them all.
    assert hooks.events == [e.type for e in events]


def _crash_on_tool_call(event: StreamEvent) -> None:
    if event.type == "tool_call":
        raise RuntimeError("sink bug")


async def test_an_unexpected_error_surfaces_as_itself_and_closes_the_turn(
    model_server: StartServer, tmp_path: Path
) -> None:
    server = model_server([{"tool_calls": [call("r1", "read_note", {"path": "a.txt"})]}, {"text": "never"}])
    async with agent(server, tmp_path, sink=_crash_on_tool_call) as (loop, events):
        with pytest.raises(RuntimeError, match="sink bug"):
            await run_turn_interruptible(loop, "go")
    assert loop.store.get(loop.session_id).status == "error"
    assert events[-1].type == "end" and "sink bug" in events[-1].text
    assert tool_messages({"messages": loop.store.messages(loop.session_id)})["r1"].startswith("No result")


async def test_a_raising_hook_is_reported_and_the_run_goes_on(
    model_server: StartServer, tmp_path: Path
) -> None:
    class Crashing:
        def before_model_call(self, messages: list[dict[str, Any]]) -> None:
            raise RuntimeError("hook bug")

    server = model_server([{"text": "fine"}])
    async with agent(server, tmp_path, hooks=Crashing()) as (loop, _events):
        result = await loop.run_turn("go")
    assert result.status == "final" and result.text == "fine"
