"""The model side of the agent: one streamed chat completion over LiteLLM, made reliable.

``ModelClient.complete`` streams an answer (text, reasoning, several tool calls), reports it as
stream events while it arrives, retries transient failures with backoff that honours Retry-After,
falls back to a second model when the first keeps failing, and raises ``ContextWindowExceeded``
so the loop can condense older turns and try again. LiteLLM is imported on the first call.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import anyio
from pydantic import BaseModel, Field

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.model.cost import context_window, cost_usd
from assista_mcp.agent.model.credentials import api_key_for, require_model
from assista_mcp.agent.model.provider import load_litellm
from assista_mcp.agent.model.retry import Failure, backoff_delay, classify, describe_attempt
from assista_mcp.agent.model.stream import StreamAssembler
from assista_mcp.agent.model.summary import (
    MAX_TRANSCRIPT_CHARS,
    MIN_TRANSCRIPT_CHARS,
    SUMMARY_SYSTEM_PROMPT,
    transcript,
)
from odoo_tools.errors import AssistaError

OnEvent = Callable[[StreamEvent], None]


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: str  # raw JSON text as streamed; may be invalid (the loop reports that to the model)


class ModelReply(BaseModel):
    text: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None
    model: str  # the model that answered (the fallback, when the primary gave up)

    def to_message(self) -> dict[str, Any]:
        """This reply as an assistant message in OpenAI chat format, for the history."""
        message: dict[str, Any] = {"role": "assistant", "content": self.text or None}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        return message


class ModelError(AssistaError):
    """The model could not answer, after retries and fallback; the message says why."""


class ContextWindowExceeded(ModelError):
    """The messages no longer fit the model's context window: condense older turns and retry."""


class _ProviderFailure(Exception):
    """Wraps whatever LiteLLM or the transport raised, so only those errors are classified."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


def _ignore(event: StreamEvent) -> None:
    return None


class ModelClient:
    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        fallback_model: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        base_delay: float = 1.0,
        max_delay: float = 60.0,
    ) -> None:
        self.model = require_model(model)
        self.api_base = api_base
        self.fallback_model = fallback_model.strip() if fallback_model else None
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._api_keys: dict[str, str | None] = {}

    # -- public API ------------------------------------------------------------------------------
    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], on_event: OnEvent
    ) -> ModelReply:
        """Stream one answer. Emits text/reasoning deltas, one usage event, and an error event
        before each retry or fallback. Raises ContextWindowExceeded or ModelError."""
        try:
            return await self._complete_with_retries(self.model, messages, tools, on_event)
        except ContextWindowExceeded:
            raise
        except ModelError as error:
            if not self.fallback_model:
                raise
            primary_error = error
        text = f"{self.model} keeps failing ({primary_error.message}). Switching to fallback model "
        on_event(StreamEvent(type="error", text=f"{text}{self.fallback_model}."))
        try:
            return await self._complete_with_retries(self.fallback_model, messages, tools, on_event)
        except ContextWindowExceeded:
            raise
        except ModelError as error:
            raise ModelError(f"{error.message} (primary: {primary_error.message})", error.hint) from error

    async def summarize(self, messages: list[dict[str, Any]], on_event: OnEvent = _ignore) -> str:
        """A compact summary of ``messages`` (older turns being condensed out of the history).

        When even the transcript does not fit, it is cut shorter (the middle goes first) and
        the request is tried again, down to a small fraction of the first size."""
        budget = MAX_TRANSCRIPT_CHARS
        while True:
            request = [
                {"role": "system", "content": SUMMARY_SYSTEM_PROMPT},
                {"role": "user", "content": transcript(messages, budget)},
            ]
            try:
                reply = await self.complete(request, [], on_event)
                break
            except ContextWindowExceeded:
                if budget <= MIN_TRANSCRIPT_CHARS:
                    raise
                budget //= 4
        summary = reply.text.strip()
        if not summary:
            raise ModelError("The model returned an empty summary.", "Try again, or start a new session.")
        return summary

    async def check_ready(self) -> None:
        """Fail at once (ConfigError) when a model's provider is unknown or its API key unset,
        instead of retrying an error no retry can fix. Imports LiteLLM in a worker thread."""
        for model in filter(None, (self.model, self.fallback_model)):
            key = await anyio.to_thread.run_sync(api_key_for, model, self.api_base)
            self._api_keys[model] = key

    def context_window(self) -> int | None:
        """Maximum input tokens of the primary model, when LiteLLM's local map knows it."""
        return context_window(self.model)

    def count_tokens(self, messages: list[dict[str, Any]]) -> int:
        """Approximate prompt tokens of ``messages`` for the primary model."""
        return int(load_litellm().token_counter(model=self.model, messages=messages))

    # -- one model, several attempts -------------------------------------------------------------
    async def _complete_with_retries(
        self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], on_event: OnEvent
    ) -> ModelReply:
        for attempt in range(self.max_retries + 1):
            assembler = StreamAssembler()
            try:
                return await self._attempt(model, messages, tools, on_event, assembler)
            except _ProviderFailure as failure_exc:
                failure = classify(failure_exc.original)
            self._raise_unless_retryable(model, failure, attempt)
            delay = backoff_delay(attempt, self.base_delay, failure.retry_after, max_delay=self.max_delay)
            text = describe_attempt(failure, delay, attempt + 1, self.max_retries, assembler.emitted)
            on_event(StreamEvent(type="error", text=text))
            await anyio.sleep(delay)
        raise AssertionError("unreachable: the last attempt raises")

    def _raise_unless_retryable(self, model: str, failure: Failure, attempt: int) -> None:
        if failure.kind == "context_window":
            raise ContextWindowExceeded(
                failure.reason, "Older turns must be condensed (the agent does this) or start a new session."
            )
        if failure.kind == "fatal":
            raise ModelError(f"{model}: {failure.reason.rstrip('.')}.", failure.hint)  # one period
        if attempt >= self.max_retries:
            tries = "once" if self.max_retries == 0 else f"after {self.max_retries + 1} attempts"
            raise ModelError(
                f"{model} failed {tries}: {failure.reason.rstrip('.')}.",
                "The provider keeps failing; wait and run again (the session is kept), or pass "
                "--fallback-model.",
            )

    async def _attempt(
        self,
        model: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        on_event: OnEvent,
        assembler: StreamAssembler,
    ) -> ModelReply:
        stream = await self._open_stream(model, messages, tools)
        try:
            await self._drain(stream, assembler, on_event)
        finally:
            await _close(stream)
        usage = assembler.usage or Usage()
        usage = usage.model_copy(update={"cost_usd": cost_usd(model, usage)})
        on_event(StreamEvent(type="usage", usage=usage))
        return ModelReply(
            text="".join(assembler.text),
            reasoning="".join(assembler.reasoning),
            tool_calls=[ToolCall(id=i, name=n, arguments=a) for i, n, a in assembler.tool_calls()],
            usage=usage,
            finish_reason=assembler.finish_reason,
            model=model,
        )

    async def _open_stream(
        self, model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> Any:
        litellm = load_litellm()
        options: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            # Slightly beyond our own deadlines, so a stall is reported the same way every time.
            "timeout": self.timeout * 1.2 + 1.0,
            "max_retries": 0,  # the provider SDK's own retries: ours replace them
            "num_retries": 0,
        }
        if tools:
            # A copy: LiteLLM rewrites schemas in place for some providers (Gemini: $defs inlined,
            # null dropped from anyOf), which would change what our own argument checks accept.
            options["tools"] = copy.deepcopy(tools)
        if self.api_base:
            options["api_base"] = self.api_base
        if api_key := self._api_keys.get(model):
            options["api_key"] = api_key
        try:
            with anyio.fail_after(self.timeout):
                return await litellm.acompletion(**options)
        except Exception as exc:
            raise _ProviderFailure(exc) from exc

    async def _drain(self, stream: Any, assembler: StreamAssembler, on_event: OnEvent) -> None:
        """Feed every chunk to the assembler. A stall longer than the timeout is a failure; one
        cancel scope re-armed per chunk is cheaper than a new timeout scope per chunk."""
        with anyio.CancelScope(deadline=anyio.current_time() + self.timeout) as idle:
            while (chunk := await _next_chunk(stream)) is not None:
                idle.deadline = anyio.current_time() + self.timeout
                for event in assembler.feed(chunk):
                    on_event(event)
        if idle.cancelled_caught:
            raise _ProviderFailure(TimeoutError(f"no data from the model for {self.timeout:g}s"))


async def _next_chunk(stream: Any) -> Any:
    """The next chunk, or None at the end; only the provider's own failures are wrapped."""
    try:
        return await stream.__anext__()
    except StopAsyncIteration:
        return None
    except Exception as exc:
        raise _ProviderFailure(exc) from exc


async def _close(stream: Any) -> None:
    """Release the HTTP connection, also when cancelled mid-stream (Ctrl-C)."""
    close = getattr(stream, "aclose", None)
    if close is None:
        return
    with anyio.CancelScope(shield=True):
        try:
            await close()
        except Exception:  # closing a broken stream may fail again; the outcome is already known
            return
