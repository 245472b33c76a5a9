"""Normalized stream events from the agent loop.

The terminal renderer, the sessions store, ``--events jsonl`` and hooks all consume these same
events; nothing else describes what happened during a run.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, Field

EventType = Literal["text", "reasoning", "tool_call", "tool_result", "usage", "error", "end"]


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
        )


class StreamEvent(BaseModel):
    """One event. Which fields are set depends on ``type``:

    - text / reasoning: ``text`` (a delta, as streamed)
    - tool_call: ``tool_call_id``, ``tool_name``, ``arguments`` (parsed JSON, or {} when invalid)
    - tool_result: ``tool_call_id``, ``tool_name``, ``text``, ``is_error``, ``data`` (structured)
    - usage: ``usage`` (for one model call)
    - error: ``text`` (what went wrong and what happens next)
    - end: ``text`` (why the run stopped: final answer, max steps, interrupted, error)
    """

    type: EventType
    text: str = ""
    tool_call_id: str = ""
    tool_name: str = ""
    arguments: dict[str, Any] = Field(default_factory=dict)
    is_error: bool = False
    data: dict[str, Any] | None = None
    usage: Usage | None = None
    step: int = 0
    at: float = Field(default_factory=time.time)
