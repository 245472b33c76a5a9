"""What a provider's refusal looks like to a person, and histories no provider refuses.

Over each provider family's own wire format (the scripted stand-ins, through LiteLLM's real
routes): the provider's message is shown once and readable, never LiteLLM's ``b'{...}'`` dump;
a history whose tool results and calls do not pair is mended before it is sent, and LiteLLM's
"Missing corresponding tool call" is not retried.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.loop.history import INTERRUPTED, History, paired
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.model.client import ModelClient, ModelError
from assista_mcp.agent.model.provider_errors import provider_message
from tests.agent.conftest import EVERY_PROVIDER, StartServer
from tests.agent.loop_support import agent, tool_messages

pytestmark = pytest.mark.anyio
BUSY = "The service is busy now, try again shortly"
RAW_MARKS = ("b'", 'b"', "{", "Handle with", "Exception")


async def _errors_and_failure(server: Any, messages: list[dict[str, Any]]) -> tuple[list[str], str]:
    client = ModelClient(
        server.litellm_model, api_base=server.api_base, base_delay=0.001, max_retries=1, timeout=30
    )
    await client.check_ready()
    errors: list[str] = []
    with pytest.raises(ModelError) as failed:
        await client.complete(messages, [], lambda e: errors.append(e.text) if e.type == "error" else None)
    return errors, failed.value.message


@EVERY_PROVIDER
async def test_a_retried_provider_error_shows_the_providers_message_once(model_server: StartServer) -> None:
    server = model_server([{"status": 503, "error": BUSY}, {"status": 503, "error": BUSY}])
    errors, failure = await _errors_and_failure(server, [{"role": "user", "content": "hi"}])
    assert len(errors) == 1 and len(server.requests) == 2
    for text in (errors[0], failure):
        assert text.count(BUSY) == 1, text
        assert not any(mark in text for mark in RAW_MARKS), text
    assert errors[0].startswith(f"Provider error (503): {BUSY}")


@EVERY_PROVIDER
async def test_a_refused_request_shows_the_providers_message_once(model_server: StartServer) -> None:
    refusal = "messages.0.content: field required"
    server = model_server([{"status": 400, "error": refusal}])
    errors, failure = await _errors_and_failure(server, [{"role": "user", "content": "hi"}])
    assert errors == [] and len(server.requests) == 1
    assert failure.count(refusal) == 1 and "(400)" in failure
    assert not any(mark in failure for mark in RAW_MARKS), failure


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "litellm.ServiceUnavailableError: AnthropicException - "
            'b\'{"type": "error", "error": '
            '{"type": "overloaded_error", "message": "Overloaded"}}\''
            ". Handle with `litellm.ServiceUnavailableError`.",
            "Overloaded (overloaded_error)",
        ),
        (
            'Vertex_ai_betaException BadRequestError - b\'{"error": {"code": 400, "message": '
            '"It\\\'s wrong", "status": "INVALID_ARGUMENT"}}\'',
            "It's wrong (INVALID_ARGUMENT)",
        ),
        (
            '[{"error": {"code": 429, "message": "Quota", "status": "RESOURCE_EXHAUSTED"}}]',
            "Quota (RESOURCE_EXHAUSTED)",
        ),
        ('Error code: 500 - {"error": {"message": "boom", "type": "server_error"}}', "boom (server_error)"),
        ("OpenAIException - plain words, no body", None),
        ("message={'role': 'tool'} is a Python dict, not JSON", None),
    ],
)
def test_provider_message_reads_each_providers_error_body(text: str, said: str | None) -> None:
    assert provider_message(text) == said


# -- tool calls and results that do not pair ----------------------------------------------------------
def _assistant(*ids: str) -> dict[str, Any]:
    calls = [{"id": i, "type": "function", "function": {"name": "read_file", "arguments": "{}"}} for i in ids]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def _result(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"result of {call_id}"}


# What two runs appending to one session at once can leave: a result
# after a user message, a result for a call that does not exist, a call never answered.
UNPAIRED = [
    {"role": "user", "content": "read the notes"},
    _assistant("a1", "a2"),
    _result("a1"),
    {"role": "user", "content": "and the other one?"},
    _result("a2"),
    _result("ghost"),
    _assistant("b1"),
    {"role": "assistant", "content": "Read both."},
]


def test_paired_leaves_out_stray_results_and_answers_open_calls() -> None:
    view = paired(UNPAIRED)
    assert [(m["role"], m.get("tool_call_id")) for m in view] == [
        ("user", None),
        ("assistant", None),
        ("tool", "a1"),
        ("tool", "a2"),
        ("user", None),
        ("assistant", None),
        ("tool", "b1"),
        ("assistant", None),
    ]
    assert view[3]["content"] == view[6]["content"] == INTERRUPTED
    assert paired(view) == view  # a paired history goes out unchanged


def test_condensing_never_separates_a_result_from_its_call() -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "task"}]
    for step in range(6):
        ids = [f"s{step}c{i}" for i in range(step % 3 + 1)]
        messages += [_assistant(*ids), *(_result(i) for i in ids)]
    history = History(messages)
    while (cut := history.next_cut()) is not None:
        history.condense(cut, "summary")
        view = history.view()
        assert paired(view) == view
        assert view[0]["role"] == "user" and view[-1]["role"] == "tool"


@EVERY_PROVIDER
async def test_a_stored_history_that_does_not_pair_is_mended_before_it_is_sent(
    model_server: StartServer, tmp_path: Path
) -> None:
    server = model_server([{"text": "Done."}])
    store = SessionStore.in_home(tmp_path / "home")
    session_id = store.create(model=server.litellm_model, mode="yolo").id
    for message in UNPAIRED:
        store.add_message(session_id, message)
    root = tmp_path / "notes"
    root.mkdir()
    async with agent(server, root, store=store, session_id=session_id) as (loop, events):
        result = await loop.run_turn("go on")
    assert result.status == "final", [e.text for e in events if e.type == "error"]
    assert server.rejected == [] and len(server.requests) == 1
    assert tool_messages(server.requests[0]) == {
        "a1": "result of a1",
        "a2": INTERRUPTED,
        "b1": INTERRUPTED,
    }


@pytest.mark.parametrize("model_server", ["gemini"], indirect=True)
async def test_a_result_without_its_call_is_a_clear_error_not_retried(model_server: StartServer) -> None:
    # Sent as it is (bypassing the history), LiteLLM's Gemini route refuses it before any request.
    server = model_server([{"text": "never"}])
    messages = [{"role": "user", "content": "hi"}, _result("ghost")]
    errors, failure = await _errors_and_failure(server, messages)
    assert errors == [] and server.requests == []
    assert "tool result does not follow the tool call" in failure
    assert "Traceback" not in failure and "ghost" not in failure
