"""ModelClient through LiteLLM's real HTTP streaming path, against the scripted model server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.model.client import ContextWindowExceeded, ModelClient, ModelError, ModelReply

from .conftest import TEST_MODEL, ScriptedModelServer, StartServer

pytestmark = pytest.mark.anyio

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
    }
]
USER = [{"role": "user", "content": "Add a field to library.book"}]


def client_for(server: ScriptedModelServer, **options: Any) -> ModelClient:
    options.setdefault("base_delay", 0.01)
    return ModelClient(TEST_MODEL, api_base=server.api_base, **options)


async def complete(
    client: ModelClient, tools: list[dict[str, Any]] | None = None
) -> tuple[ModelReply, list[StreamEvent]]:
    events: list[StreamEvent] = []
    reply = await client.complete(USER, TOOLS if tools is None else tools, events.append)
    return reply, events


async def test_streamed_text_arrives_as_deltas_and_request_is_what_we_sent(
    model_server: StartServer,
) -> None:
    server = model_server([{"text": "The field is added.", "split": 4}])
    reply, events = await complete(client_for(server))
    assert reply.text == "The field is added."
    assert reply.tool_calls == [] and reply.finish_reason == "stop" and reply.model == TEST_MODEL
    deltas = [e.text for e in events if e.type == "text"]
    assert deltas == ["The ", "fiel", "d is", " add", "ed."]
    (body,) = server.requests
    assert body["messages"] == USER
    assert body["tools"] == TOOLS
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["model"] == "test-model"


async def test_tool_calls_split_across_chunks_several_in_one_answer(model_server: StartServer) -> None:
    calls = [
        {"id": "call_a", "name": "read_file", "arguments": '{"path": "library_base/models/library_book.py"}'},
        {"id": "call_b", "name": "list_files", "arguments": '{"path": "library_base"}'},
        {"id": "call_c", "name": "search_code", "arguments": '{"pattern": "_name = \\"library.book\\""}'},
    ]
    server = model_server([{"text": "Reading first.", "tool_calls": calls, "split": 3}])
    reply, _ = await complete(client_for(server))
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        (c["id"], c["name"], c["arguments"]) for c in calls
    ]
    assert json.loads(reply.tool_calls[2].arguments) == {"pattern": '_name = "library.book"'}
    assert reply.finish_reason == "tool_calls"
    message = reply.to_message()
    assert message["content"] == "Reading first."
    assert [c["function"]["name"] for c in message["tool_calls"]] == [
        "read_file",
        "list_files",
        "search_code",
    ]


async def test_invalid_json_arguments_are_returned_raw_for_the_loop(model_server: StartServer) -> None:
    server = model_server([{"tool_calls": [{"id": "c1", "name": "read_file", "arguments": '{"path": '}]}])
    reply, _ = await complete(client_for(server))
    assert reply.tool_calls[0].arguments == '{"path": '
    assert reply.to_message()["content"] is None


async def test_reasoning_deltas_and_usage_with_cached_tokens(model_server: StartServer) -> None:
    usage = {"prompt_tokens": 120, "completion_tokens": 30, "cached_tokens": 100}
    server = model_server(
        [{"reasoning": "The model lives in models/.", "text": "Done.", "usage": usage, "split": 5}]
    )
    reply, events = await complete(client_for(server))
    assert reply.reasoning == "The model lives in models/."
    assert "".join(e.text for e in events if e.type == "reasoning") == reply.reasoning
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.cached_tokens) == (
        120,
        30,
        100,
    )
    assert reply.usage.cost_usd == 0.0  # test-model is not in LiteLLM's map
    usage_events = [e for e in events if e.type == "usage"]
    assert len(usage_events) == 1 and usage_events[0].usage == reply.usage
    assert [e.type for e in events].index("usage") == len(events) - 1


async def test_tools_omitted_when_none_are_offered(model_server: StartServer) -> None:
    server = model_server([{"text": "ok"}])
    await complete(client_for(server), tools=[])
    assert "tools" not in server.requests[0]


@pytest.mark.parametrize("status", [429, 503])
async def test_retry_after_is_honoured(model_server: StartServer, status: int) -> None:
    server = model_server([{"status": status, "retry_after": 1}, {"text": "after the wait"}])
    reply, events = await complete(client_for(server, base_delay=0.05))
    assert reply.text == "after the wait"
    gap = server.request_times[1] - server.request_times[0]
    assert gap >= 1.0
    (error,) = [e for e in events if e.type == "error"]
    assert str(status) in error.text and "Retrying in 1.0s (retry 1 of 4)" in error.text


async def test_server_errors_back_off_exponentially_then_succeed(model_server: StartServer) -> None:
    server = model_server([{"status": 500}, {"status": 503}, {"status": 502}, {"text": "finally"}])
    reply, events = await complete(client_for(server, base_delay=0.1))
    assert reply.text == "finally"
    gaps = [b - a for a, b in zip(server.request_times, server.request_times[1:], strict=False)]
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2 and gaps[2] >= 0.4
    assert [e.type for e in events].count("error") == 3


async def test_retries_exhausted_raise_a_clear_model_error(model_server: StartServer) -> None:
    server = model_server([{"status": 500}] * 3)
    with pytest.raises(ModelError) as caught:
        await complete(client_for(server, max_retries=2))
    assert "failed after 3 attempts" in caught.value.message
    assert "--fallback-model" in caught.value.hint
    assert len(server.requests) == 3


async def test_fallback_model_answers_after_primary_gives_up(model_server: StartServer) -> None:
    server = model_server([{"status": 500}, {"status": 500}, {"text": "from the fallback"}])
    client = client_for(server, max_retries=1, fallback_model="openai/backup-model")
    reply, events = await complete(client)
    assert reply.text == "from the fallback" and reply.model == "openai/backup-model"
    assert [b["model"] for b in server.requests] == ["test-model", "test-model", "backup-model"]
    assert any("Switching to fallback model openai/backup-model" in e.text for e in events)


async def test_non_retryable_error_is_not_retried(model_server: StartServer) -> None:
    server = model_server([{"status": 401, "error": "Incorrect API key provided"}, {"text": "never"}])
    with pytest.raises(ModelError) as caught:
        await complete(client_for(server))
    assert "401" in caught.value.message and "API key" in caught.value.hint
    assert len(server.requests) == 1


async def test_context_window_error_is_raised_for_condensing(model_server: StartServer) -> None:
    server = model_server([{"context_window_error": True}, {"text": "never"}])
    with pytest.raises(ContextWindowExceeded) as caught:
        await complete(client_for(server, fallback_model="openai/other"))
    assert "context" in caught.value.message
    assert len(server.requests) == 1  # neither retried nor sent to the fallback


async def test_malformed_chunk_is_retried_and_partial_text_flagged(model_server: StartServer) -> None:
    server = model_server([{"text": "Hello there", "split": 5, "malformed": True}, {"text": "Clean answer"}])
    reply, events = await complete(client_for(server))
    assert reply.text == "Clean answer"
    (error,) = [e for e in events if e.type == "error"]
    assert "stream broke off" in error.text and "partial answer" in error.text
    assert "Traceback" not in error.text and "litellm." not in error.text
    assert len(server.requests) == 2


async def test_malformed_chunk_every_time_ends_in_model_error(model_server: StartServer) -> None:
    server = model_server([{"text": "x", "malformed": True}] * 2)
    with pytest.raises(ModelError):
        await complete(client_for(server, max_retries=1))


async def test_slow_answer_times_out_and_is_retried(model_server: StartServer) -> None:
    server = model_server([{"text": "too late", "delay": 2.0}, {"text": "in time"}])
    reply, events = await complete(client_for(server, timeout=0.5))
    assert reply.text == "in time"
    assert "did not answer in time" in next(e.text for e in events if e.type == "error")


async def test_stalled_stream_times_out_and_is_retried(model_server: StartServer) -> None:
    server = model_server([{"text": "abcdef", "split": 2, "chunk_delay": 3.0}, {"text": "fresh"}])
    reply, events = await complete(client_for(server, timeout=0.5))
    assert reply.text == "fresh"
    error = next(e.text for e in events if e.type == "error")
    assert error.startswith("The model did not answer in time")
    assert server.wait_aborted(30.0)  # the stalled stream was closed, not left hanging


async def test_api_key_never_appears_in_errors_or_output(
    model_server: StartServer, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    secret = "sk-very-secret-value-123456"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    server = model_server([{"status": 401, "error": f"Incorrect API key provided: {secret}"}])
    events: list[StreamEvent] = []
    with pytest.raises(ModelError) as caught:
        await client_for(server).complete(USER, TOOLS, events.append)
    assert server.request_headers[0]["authorization"] == f"Bearer {secret}"  # it was used...
    assert secret not in str(caught.value)  # ...but never shown
    assert all(secret not in e.text for e in events)
    printed = capfd.readouterr()
    assert printed.out == "" and printed.err == ""  # no LiteLLM banners or log lines either


async def test_summarize_sends_a_transcript_without_tools(model_server: StartServer) -> None:
    server = model_server([{"text": "  Goal: add isbn field. Edited models/library_book.py.  "}])
    history: list[dict[str, Any]] = [
        {"role": "user", "content": "Add an isbn field"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "class LibraryBook(models.Model): ..."},
    ]
    summary = await client_for(server).summarize(history)
    assert summary == "Goal: add isbn field. Edited models/library_book.py."
    (body,) = server.requests
    assert "tools" not in body
    assert body["messages"][0]["role"] == "system"
    sent = body["messages"][1]["content"]
    assert "Add an isbn field" in sent and "call read_file({})" in sent and "class LibraryBook" in sent


async def test_empty_summary_is_an_error(model_server: StartServer) -> None:
    server = model_server([{"text": ""}])
    with pytest.raises(ModelError):
        await client_for(server).summarize([{"role": "user", "content": "hi"}])


async def test_dropped_connection_mid_stream_is_retried(model_server: StartServer) -> None:
    server = model_server([{"text": "Half an ans", "split": 4, "disconnect": True}, {"text": "Whole answer"}])
    reply, events = await complete(client_for(server))
    assert reply.text == "Whole answer"
    assert next(e.text for e in events if e.type == "text") == "Half"
    (error,) = [e for e in events if e.type == "error"]
    assert "partial answer" in error.text


async def test_fallback_failing_too_reports_both_models(model_server: StartServer) -> None:
    server = model_server([{"status": 500}, {"status": 404, "error": "model backup-model not found"}])
    client = client_for(server, max_retries=0, fallback_model="openai/backup-model")
    with pytest.raises(ModelError) as caught:
        await complete(client)
    assert "backup-model not found" in caught.value.message and "primary:" in caught.value.message
    assert "model id" in caught.value.hint


async def test_summarize_cuts_the_transcript_when_it_does_not_fit(model_server: StartServer) -> None:
    server = model_server([{"context_window_error": True}, {"text": "Short summary."}])
    history = [{"role": "user", "content": f"turn {n}: " + "x" * 1500} for n in range(40)]
    assert await client_for(server).summarize(history) == "Short summary."
    first, second = (len(body["messages"][1]["content"]) for body in server.requests)
    assert second < first
    assert "turn 0:" in server.requests[1]["messages"][1]["content"]  # the start (the task) is kept
    assert "turn 39:" in server.requests[1]["messages"][1]["content"]  # and the latest turns


async def test_summarize_gives_up_when_nothing_fits(model_server: StartServer) -> None:
    server = model_server([{"context_window_error": True}] * 3)
    history = [{"role": "user", "content": "x" * 1500} for _ in range(50)]
    with pytest.raises(ContextWindowExceeded):
        await client_for(server).summarize(history)
    assert len(server.requests) == 3


async def test_usage_is_estimated_when_the_server_reports_none(model_server: StartServer) -> None:
    server = model_server([{"text": "an answer of several words", "no_usage": True}])
    reply, events = await complete(client_for(server), tools=[])
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    assert [e.usage for e in events if e.type == "usage"] == [reply.usage]
