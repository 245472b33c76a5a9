"""Assemble a streamed chat completion (LiteLLM chunks in OpenAI's shape) into one reply.

Tool calls arrive as deltas keyed by ``index``: the first carries id and name, later ones carry
pieces of the JSON arguments. Several calls can interleave. Text and reasoning deltas are also
passed on as stream events as they arrive.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from assista_mcp.agent.events import StreamEvent, Usage


@dataclass
class PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class StreamAssembler:
    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    calls: dict[int, PartialCall] = field(default_factory=dict)
    usage: Usage | None = None
    finish_reason: str | None = None
    emitted: bool = False  # did any text or reasoning reach the caller?

    def feed(self, chunk: Any) -> list[StreamEvent]:
        """Take one chunk; return the text/reasoning events it produced."""
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self.usage = usage_from(usage)
        events: list[StreamEvent] = []
        for choice in getattr(chunk, "choices", None) or []:
            if getattr(choice, "finish_reason", None):
                self.finish_reason = str(choice.finish_reason)
            delta = getattr(choice, "delta", None)
            if delta is not None:
                events.extend(self._take_delta(delta))
        self.emitted = self.emitted or bool(events)
        return events

    def _take_delta(self, delta: Any) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        reasoning = getattr(delta, "reasoning_content", None)
        if isinstance(reasoning, str) and reasoning:
            self.reasoning.append(reasoning)
            events.append(StreamEvent(type="reasoning", text=reasoning))
        content = getattr(delta, "content", None)
        if isinstance(content, str) and content:
            self.text.append(content)
            events.append(StreamEvent(type="text", text=content))
        for call_delta in getattr(delta, "tool_calls", None) or []:
            self._take_call_delta(call_delta)
        return events

    def _take_call_delta(self, call_delta: Any) -> None:
        call_id = getattr(call_delta, "id", None) or ""
        index = getattr(call_delta, "index", None)
        if not isinstance(index, int):
            index = self._index_without_one(call_id)
        current = self.calls.get(index)
        if current is not None and call_id and current.id and call_id != current.id:
            # Some providers reuse index 0 for every complete call: a new id is a new call.
            index = max(self.calls) + 1
            current = None
        if current is None:
            current = self.calls[index] = PartialCall()
        current.id = current.id or call_id
        function = getattr(call_delta, "function", None)
        name = getattr(function, "name", None)
        if name and not current.name:
            current.name = str(name)
        arguments = getattr(function, "arguments", None)
        if isinstance(arguments, dict):  # a provider that hands over parsed arguments
            arguments = json.dumps(arguments)
        if arguments:
            current.arguments.append(str(arguments))

    def _index_without_one(self, call_id: str) -> int:
        """Deltas without an index continue the latest call, unless they bring a new id."""
        if not self.calls:
            return 0
        latest = max(self.calls)
        if call_id and self.calls[latest].id and call_id != self.calls[latest].id:
            return latest + 1
        return latest

    def tool_calls(self) -> list[tuple[str, str, str]]:
        """(id, name, raw arguments) per call, in index order; missing ids get a stable stand-in."""
        result = []
        for position, index in enumerate(sorted(self.calls)):
            call = self.calls[index]
            result.append((call.id or f"call_{position + 1}", call.name, "".join(call.arguments)))
        return result


def usage_from(raw: Any) -> Usage:
    """Our Usage from an OpenAI/LiteLLM usage object (cached tokens from either naming)."""
    details = _get(raw, "prompt_tokens_details")
    cached = _get(details, "cached_tokens") if details is not None else None
    if not cached:
        cached = _get(raw, "cache_read_input_tokens")  # Anthropic's name, kept by LiteLLM
    return Usage(
        prompt_tokens=int(_get(raw, "prompt_tokens") or 0),
        completion_tokens=int(_get(raw, "completion_tokens") or 0),
        cached_tokens=int(cached or 0),
    )


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)
