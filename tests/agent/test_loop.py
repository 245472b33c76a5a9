"""The loop through LiteLLM's real HTTP streaming path and real MCP calls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.safety.effects import Effect
from fixtures.model_server import ScriptedModelServer
from tests.agent.conftest import EVERY_PROVIDER
from tests.agent.loop_support import agent, call, tool_messages
from tests.agent.tool_servers import SlowState

pytestmark = pytest.mark.anyio
StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.txt").write_text("alpha", encoding="utf-8")
    (root / "b.txt").write_text("beta", encoding="utf-8")
    return root


@EVERY_PROVIDER
async def test_every_tool_call_of_an_answer_runs(model_server: StartServer, notes: Path) -> None:
    server = model_server(
        [
            {
                "text": "Reading both, then writing.",
                "split": 4,
                "tool_calls": [
                    call("c1", "read_note", {"path": "a.txt"}),
                    call("c2", "read_note", {"path": "b.txt"}),
                    call("c3", "write_file", {"path": "c.txt", "content": "gamma"}),
                ],
            },
            {"text": "Done: c.txt written."},
        ]
    )
    async with agent(server, notes) as (loop, events):
        result = await loop.run_turn("combine the notes")
    assert result.status == "final" and result.text == "Done: c.txt written."
    assert (notes / "c.txt").read_text(encoding="utf-8") == "gamma"
    results = tool_messages(server.requests[1])
    assert set(results) == {"c1", "c2", "c3"}
    assert "alpha" in results["c1"] and "beta" in results["c2"]
    kinds = [e.type for e in events]
    assert kinds.count("tool_call") == 3 and kinds.count("tool_result") == 3 and kinds[-1] == "end"
    # The stored history pairs every call with its result, in call order.
    stored = loop.store.messages(loop.session_id)
    assert [m["role"] for m in stored] == ["user", "assistant", "tool", "tool", "tool", "assistant"]
    # (Gemini 3 call ids carry the thought signature LiteLLM folds into them: compare with the call.)
    called = [c["id"] for c in stored[1]["tool_calls"]]
    assert [m["tool_call_id"] for m in stored if m["role"] == "tool"] == called


async def test_bad_calls_go_back_to_the_model_as_results(model_server: StartServer, notes: Path) -> None:
    server = model_server(
        [
            {
                "tool_calls": [
                    call("c1", "no_such_tool", {}),
                    call("c2", "read_note", '{"path": "a.txt"'),
                    call("c3", "write_file", {"path": "x.txt"}),
                    call("c4", "read_note", {"path": "missing.txt"}),
                ]
            },
            {"text": "I see the problems."},
        ]
    )
    async with agent(server, notes) as (loop, _events):
        result = await loop.run_turn("try things")
    assert result.status == "final"
    results = tool_messages(server.requests[1])
    assert "Unknown tool 'no_such_tool'" in results["c1"] and "read_note" in results["c1"]
    assert "not valid JSON" in results["c2"]
    assert "'content' is a required property" in results["c3"]
    assert "List notes first" in results["c4"]
    assert not (notes / "x.txt").exists()


async def test_call_ids_repeated_across_steps_are_made_unique(model_server: StartServer, notes: Path) -> None:
    again = {"tool_calls": [call("c1", "read_note", {"path": "a.txt"})]}
    server = model_server([again, dict(again), {"text": "done"}])
    async with agent(server, notes) as (loop, _events):
        await loop.run_turn("read twice")
    sent = server.requests[2]["messages"]
    call_ids = [c["id"] for m in sent for c in m.get("tool_calls") or []]
    assert call_ids[0] == "c1" and len(set(call_ids)) == 2
    assert [m["tool_call_id"] for m in sent if m["role"] == "tool"] == call_ids


async def test_step_cap_stops_with_the_session_kept(model_server: StartServer, notes: Path) -> None:
    looping = {"tool_calls": [call("", "read_note", {"path": "a.txt"})]}
    server = model_server([looping, looping, looping])
    async with agent(server, notes, max_steps=2) as (loop, events):
        result = await loop.run_turn("loop forever")
    assert result.status == "max_steps" and result.steps == 2
    assert len(server.requests) == 2
    assert "--max-steps" in events[-1].text and loop.session_id in events[-1].text
    stored = loop.store.messages(loop.session_id)
    assert stored[-1]["role"] == "tool"  # the last call got its result before stopping
    assert loop.store.get(loop.session_id).status == "max_steps"


@EVERY_PROVIDER
async def test_modes_decide_what_is_offered_and_allowed(model_server: StartServer, notes: Path) -> None:
    both = {
        "tool_calls": [
            call("w", "write_file", {"path": "a.txt", "content": "changed"}),
            call("d", "delete_file", {"path": "b.txt"}),
        ]
    }
    for mode in ("ask", "auto-edit", "read-only"):
        (notes / "a.txt").write_text("alpha", encoding="utf-8")
        server = model_server([dict(both), {"text": "ok"}])
        async with agent(server, notes, mode=mode) as (loop, _events):
            await loop.run_turn("change things")
        offered = {t["function"]["name"] for t in server.requests[0]["tools"]}
        results = tool_messages(server.requests[1])
        if mode == "read-only":
            assert offered == {"read_note"}
        else:
            assert offered == {"read_note", "write_file", "delete_file", "slow_task"}
        assert results["d"].startswith("Denied")
        assert (notes / "b.txt").exists()
        if mode == "auto-edit":
            assert (notes / "a.txt").read_text(encoding="utf-8") == "changed"
        else:
            assert results["w"].startswith("Denied")
            assert (notes / "a.txt").read_text(encoding="utf-8") == "alpha"


async def test_cancelling_a_slow_tool_keeps_the_session_consistent(
    model_server: StartServer, notes: Path
) -> None:
    server = model_server([{"tool_calls": [call("s1", "slow_task", {"seconds": 60})]}])
    slow = SlowState()
    async with agent(server, notes, slow=slow) as (loop, events):
        with anyio.CancelScope() as scope:

            async def cancel_when_started() -> None:
                await slow.started.wait()
                scope.cancel()

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(cancel_when_started)
                await loop.run_turn("install it")
        assert scope.cancelled_caught
    assert slow.cancelled and not slow.finished
    stored = loop.store.messages(loop.session_id)
    assert stored[-1]["role"] == "tool" and "cancelled by the user" in stored[-1]["content"]
    assert events[-1].type == "end" and (events[-1].data or {})["status"] == "interrupted"
    assert loop.store.get(loop.session_id).status == "interrupted"


async def test_resume_sends_the_stored_history(model_server: StartServer, notes: Path) -> None:
    first = model_server(
        [{"tool_calls": [call("r1", "read_note", {"path": "a.txt"})]}, {"text": "alpha it is"}]
    )
    store = SessionStore.in_home(notes.parent / "home")
    async with agent(first, notes, store=store) as (loop, _events):
        await loop.run_turn("what is in a.txt?")
        session_id = loop.session_id
    second = model_server([{"text": "still alpha"}])
    async with agent(second, notes, store=store, session_id=session_id) as (loop, _events):
        await loop.run_turn("and now?")
    sent = second.requests[0]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert sent[1]["content"] == "what is in a.txt?" and sent[-1]["content"] == "and now?"


async def test_an_interrupted_run_is_repaired_on_resume(model_server: StartServer, notes: Path) -> None:
    store = SessionStore.in_home(notes.parent / "home")
    info = store.create(model="m", mode="yolo")
    store.add_message(info.id, {"role": "user", "content": "go"})
    dangling = {"id": "x1", "type": "function", "function": {"name": "read_note", "arguments": "{}"}}
    store.add_message(info.id, {"role": "assistant", "content": None, "tool_calls": [dangling]})
    server = model_server([{"text": "resumed"}])
    async with agent(server, notes, store=store, session_id=info.id) as (loop, _events):
        await loop.run_turn("continue")
    assert "previous run stopped" in tool_messages(server.requests[0])["x1"]


@EVERY_PROVIDER
async def test_context_window_error_condenses_older_turns(model_server: StartServer, notes: Path) -> None:
    server = model_server(
        [
            {"text": "first answer"},
            {"context_window_error": True},
            {"text": "SUMMARY: user asked about notes"},
            {"text": "second answer"},
        ]
    )
    async with agent(server, notes) as (loop, events):
        await loop.run_turn("first question")
        result = await loop.run_turn("second question")
    assert result.status == "final" and result.text == "second answer"
    retried = server.requests[3]["messages"]
    assert "SUMMARY: user asked about notes" in retried[1]["content"]
    assert retried[-1]["content"] == "second question"
    assert all(m.get("content") != "first question" for m in retried)
    assert any(e.type == "error" and "condensing" in e.text for e in events)
    # The stored history is not condensed.
    assert [m["content"] for m in loop.store.messages(loop.session_id)] == [
        "first question",
        "first answer",
        "second question",
        "second answer",
    ]


@EVERY_PROVIDER
async def test_transient_failures_are_retried(model_server: StartServer, notes: Path) -> None:
    server = model_server([{"status": 500}, {"status": 429, "retry_after": 0}, {"text": "finally"}])
    async with agent(server, notes) as (loop, events):
        result = await loop.run_turn("hello")
    assert result.text == "finally" and len(server.requests) == 3
    assert sum(e.type == "error" for e in events) == 2


@EVERY_PROVIDER
async def test_tool_kinds_in_read_only_mode(model_server: StartServer, notes: Path) -> None:
    server = model_server(
        [{"tool_calls": [call("w", "write_file", {"path": "a.txt", "content": "x"})]}, {"text": "k"}]
    )
    async with agent(server, notes, mode="read-only") as (loop, _events):
        await loop.run_turn("plan")
        assert {t.effect for t in loop.toolset.tools.values()} >= {Effect.READ, Effect.EDIT}
    assert "read-only mode" in tool_messages(server.requests[1])["w"]
    assert (notes / "a.txt").read_text(encoding="utf-8") == "alpha"


async def test_cancelling_during_the_model_call(model_server: StartServer, notes: Path) -> None:
    server = model_server([{"text": "too late", "delay": 30}])
    async with agent(server, notes) as (loop, events):
        with anyio.move_on_after(1) as scope:
            await loop.run_turn("slow model")
        assert scope.cancelled_caught
    assert [m["role"] for m in loop.store.messages(loop.session_id)] == ["user"]
    assert (events[-1].data or {})["status"] == "interrupted"


async def test_history_beyond_a_known_window_is_condensed_before_sending(
    model_server: StartServer, notes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore.in_home(notes.parent / "home")
    info = store.create(model="m", mode="yolo")
    store.add_message(info.id, {"role": "user", "content": "old question " + "word " * 30_000})
    store.add_message(info.id, {"role": "assistant", "content": "old answer"})
    server = model_server([{"text": "SUMMARY: an old question was answered"}, {"text": "new answer"}])
    async with agent(server, notes, store=store, session_id=info.id) as (loop, events):
        # A model whose window LiteLLM knows (16k tokens), served by the scripted server.
        loop.model = ModelClient("openai/gpt-3.5-turbo", api_base=server.api_base, timeout=30)
        result = await loop.run_turn("new question")
    assert result.text == "new answer" and len(server.requests) == 2
    summary_request, main_request = server.requests
    assert "old question" in summary_request["messages"][-1]["content"]
    sent = [m["content"] for m in main_request["messages"][1:]]
    assert sent[0].endswith("SUMMARY: an old question was answered") and sent[-1] == "new question"
    assert any(e.type == "error" and "16385-token window" in e.text for e in events)
    assert loop.store.get(info.id).usage.prompt_tokens == 20  # the summary's tokens count too
