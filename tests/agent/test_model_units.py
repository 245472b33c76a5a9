"""Units of the model side: retry decisions, stream assembly, cost, redaction, lazy import, Ctrl-C."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.model.cost import context_window, cost_usd
from assista_mcp.agent.model.retry import backoff_delay, classify, parse_retry_after
from assista_mcp.agent.model.stream import StreamAssembler, usage_from
from assista_mcp.safety.redaction import REDACTED, Redactor, secret_values
from odoo_tools.errors import ConfigError

from .conftest import TEST_MODEL, StartServer


# -- retry decisions -----------------------------------------------------------------------------
def test_backoff_doubles_with_bounded_jitter_and_a_cap() -> None:
    assert [backoff_delay(n, 1.0, jitter=lambda: 0.0) for n in range(4)] == [1.0, 2.0, 4.0, 8.0]
    assert backoff_delay(1, 1.0, jitter=lambda: 1.0) == 2.5
    assert backoff_delay(10, 1.0, jitter=lambda: 0.0, max_delay=30.0) == 30.0


def test_backoff_never_waits_less_than_retry_after() -> None:
    assert backoff_delay(0, 0.05, retry_after=3.0, jitter=lambda: 0.0) == 3.0
    assert backoff_delay(3, 1.0, retry_after=0.5, jitter=lambda: 0.0) == 8.0


def test_retry_after_in_seconds_milliseconds_and_http_date() -> None:
    assert parse_retry_after({"Retry-After": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    date = "Sat, 21 Nov 2026 06:00:10 GMT"
    now = 1795240800.0  # 2026-11-21 06:00:00 UTC
    assert parse_retry_after({"retry-after": date}, now=lambda: now) == 10.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


class FakeProviderError(Exception):
    """Shaped like LiteLLM's exceptions: status_code, code, provider headers."""

    def __init__(
        self, message: str, status: int | None, code: str | None = None, headers: Any = None
    ) -> None:
        super().__init__(message)
        self.status_code = status
        self.code = code
        self.litellm_response_headers = headers


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (FakeProviderError("slow down", 429, headers={"retry-after": "4"}), "retry"),
        (FakeProviderError("overloaded", 529), "retry"),
        (FakeProviderError("bad gateway", 502), "retry"),
        (TimeoutError(), "retry"),
        (ConnectionResetError("reset"), "retry"),
        (FakeProviderError("too long", 400, code="context_length_exceeded"), "context_window"),
        (FakeProviderError("This model's maximum context length is 8192 tokens", 400), "context_window"),
        (FakeProviderError("bad key", 401), "fatal"),
        (FakeProviderError("no such model", 404), "fatal"),
        (FakeProviderError("unsupported parameter", 400), "fatal"),
    ],
)
def test_classify(exc: BaseException, kind: str) -> None:
    assert classify(exc).kind == kind


def test_classify_reads_retry_after_from_litellm_headers() -> None:
    failure = classify(FakeProviderError("slow down", 429, headers={"Retry-After": "4"}))
    assert failure.retry_after == 4.0 and "429" in failure.reason


class MidStreamFallbackError(FakeProviderError):
    """Named like LiteLLM's wrapper for failures after the stream began."""


def test_broken_stream_names_its_cause() -> None:
    timed_out = MidStreamFallbackError("Timeout on reading data from socket", 503)
    timed_out.original_exception = TimeoutError()  # type: ignore[attr-defined]
    assert classify(timed_out).reason.startswith("The model did not answer in time")
    garbage = MidStreamFallbackError("litellm.APIConnectionError: Expecting value", 500)
    assert classify(garbage).reason == "The answer stream broke off (Expecting value)"
    assert classify(garbage).kind == "retry"


def test_reasons_keep_the_providers_words_without_litellm_prefixes() -> None:
    stacked = "litellm.RateLimitError: RateLimitError: OpenAIException - slow down, please"
    assert classify(FakeProviderError(stacked, 429)).reason == "Rate limited (429): slow down, please"
    repeated = "litellm.APIConnectionError: bad chunk Original exception: APIConnectionError: bad chunk"
    assert classify(FakeProviderError(repeated, 500)).reason == "Provider error (500): bad chunk"


# -- stream assembly -----------------------------------------------------------------------------
def _chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> Any:
    calls = [
        SimpleNamespace(
            index=c.get("index"), id=c.get("id"), function=SimpleNamespace(**c.get("function", {}))
        )
        for c in delta.get("tool_calls", [])
    ]
    fields = {
        "content": delta.get("content"),
        "reasoning_content": delta.get("reasoning"),
        "tool_calls": calls,
    }
    choice = SimpleNamespace(delta=SimpleNamespace(**fields), finish_reason=finish)
    return SimpleNamespace(choices=[choice], usage=usage)


def test_assembler_interleaved_calls_and_reused_index() -> None:
    assembler = StreamAssembler()
    assembler.feed(
        _chunk({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"x"'}}]})
    )
    assembler.feed(
        _chunk({"tool_calls": [{"index": 1, "id": "b", "function": {"name": "g", "arguments": "{}"}}]})
    )
    assembler.feed(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}))
    # a provider that sends each complete call at index 0 with its own id
    assembler.feed(
        _chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "h", "arguments": "{}"}}]})
    )
    assembler.feed(_chunk({}, finish="tool_calls"))
    assert assembler.tool_calls() == [("a", "f", '{"x": 1}'), ("b", "g", "{}"), ("c", "h", "{}")]
    assert assembler.finish_reason == "tool_calls"


def test_assembler_without_indexes_and_with_parsed_arguments() -> None:
    assembler = StreamAssembler()
    assembler.feed(_chunk({"tool_calls": [{"id": "a", "function": {"name": "f", "arguments": '{"x": '}}]}))
    assembler.feed(_chunk({"tool_calls": [{"function": {"arguments": "1}"}}]}))
    assembler.feed(_chunk({"tool_calls": [{"id": "b", "function": {"name": "g", "arguments": {"y": 2}}}]}))
    assert assembler.tool_calls() == [("a", "f", '{"x": 1}'), ("b", "g", '{"y": 2}')]


def test_assembler_gives_missing_ids_a_stand_in_and_reports_deltas() -> None:
    assembler = StreamAssembler()
    events = assembler.feed(_chunk({"reasoning": "hm", "content": "Hi"}))
    assembler.feed(_chunk({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "{}"}}]}))
    assert [(e.type, e.text) for e in events] == [("reasoning", "hm"), ("text", "Hi")]
    assert assembler.emitted
    assert assembler.tool_calls() == [("call_1", "f", "{}")]


def test_usage_from_openai_and_anthropic_shapes() -> None:
    openai_usage = {
        "prompt_tokens": 10,
        "completion_tokens": 2,
        "prompt_tokens_details": {"cached_tokens": 7},
    }
    assert usage_from(openai_usage) == Usage(prompt_tokens=10, completion_tokens=2, cached_tokens=7)
    anthropic = SimpleNamespace(
        prompt_tokens=10, completion_tokens=2, prompt_tokens_details=None, cache_read_input_tokens=4
    )
    assert usage_from(anthropic).cached_tokens == 4


# -- cost and context window (LiteLLM's local map) -------------------------------------------------
def test_cost_for_a_known_model_charges_cached_tokens_less(model_env: None) -> None:
    uncached = cost_usd("openai/gpt-4o", Usage(prompt_tokens=1000, completion_tokens=100))
    cached = cost_usd("openai/gpt-4o", Usage(prompt_tokens=1000, completion_tokens=100, cached_tokens=800))
    assert 0 < cached < uncached
    assert cost_usd(TEST_MODEL, Usage(prompt_tokens=1000, completion_tokens=100)) == 0.0


def test_context_window_known_and_unknown(model_env: None) -> None:
    assert (context_window("openai/gpt-4o") or 0) > 10_000
    assert context_window(TEST_MODEL) is None


# -- secrets, configuration, lazy import -----------------------------------------------------------
def test_context_window_ignores_an_output_only_limit(model_env: None) -> None:
    from assista_mcp.agent.model.provider import load_litellm

    litellm = load_litellm()
    litellm.register_model(
        {"assista-test/output-limit-only": {"max_tokens": 4096, "litellm_provider": "openai"}}
    )
    litellm.register_model(
        {
            "assista-test/with-input": {
                "max_tokens": 4096,
                "max_input_tokens": 128000,
                "litellm_provider": "openai",
            }
        }
    )
    assert context_window("assista-test/output-limit-only") is None
    assert context_window("assista-test/with-input") == 128000


def test_redact_env_values_and_key_patterns() -> None:
    env = {"MY_PROVIDER_API_KEY": "abcdef123456", "HOME": "/home/me"}
    text = "key abcdef123456 in /home/me with sk-proj-ABCDEFGH1234 and Bearer eyJhbGciOiJIUzI1NiJ9"
    assert Redactor(secret_values(env)).text(text) == (
        f"key {REDACTED} in /home/me with [redacted:api-key] and Bearer [redacted:bearer]"
    )


def test_missing_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        ModelClient("  ")
    assert "ASSISTA_MODEL" in caught.value.hint


def test_importing_the_model_module_does_not_import_litellm() -> None:
    code = "import sys, assista_mcp.agent.model.client; print('litellm' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "False", result.stderr


# -- Ctrl-C: cancelling a model call mid-stream -----------------------------------------------------
@pytest.mark.anyio
async def test_cancel_mid_stream_propagates_and_closes_the_http_stream(model_server: StartServer) -> None:
    server = model_server([{"text": "a long answer " * 20, "split": 4, "chunk_delay": 0.05}])
    client = ModelClient(TEST_MODEL, api_base=server.api_base)
    events: list[StreamEvent] = []
    first_text = anyio.Event()

    def on_event(event: StreamEvent) -> None:
        events.append(event)
        if event.type == "text":
            first_text.set()

    async with anyio.create_task_group() as group:

        async def call() -> None:
            await client.complete([{"role": "user", "content": "hi"}], [], on_event)
            raise AssertionError("the call finished although it was cancelled")

        group.start_soon(call)
        await first_text.wait()
        group.cancel_scope.cancel()
    assert not any(e.type in ("usage", "error") for e in events)  # no retry, no completion
    # The server notices the closed connection at its next chunk write (bounded wait, not timing).
    assert await anyio.to_thread.run_sync(server.wait_aborted, 30.0)
    assert server.aborted == [0] and len(server.requests) == 1
