"""Extension points of the agent loop (checkpoints, validate-and-fix, plugins build on these).

Pass an object with these methods as ``AgentLoop(hooks=...)``; subclass ``NoHooks`` to override
only what you need. ``on_event`` runs after rendering and its errors are swallowed, so a hook never
blocks or breaks the display.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.approvals import ToolKind
from assista_mcp.agent.loop.toolset import ToolOutcome


class PendingCall(BaseModel):
    """A tool call about to run, with its arguments parsed and checked."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    kind: ToolKind = ToolKind.OTHER


class Denial(BaseModel):
    """Returned by ``before_tool_call`` to stop a call; the reason goes back to the model."""

    reason: str


class LoopHooks(Protocol):
    def session_start(self, session_id: str) -> None: ...

    def session_end(self, session_id: str) -> None: ...

    def before_model_call(self, messages: list[dict[str, Any]]) -> None: ...

    def on_event(self, event: StreamEvent) -> None: ...

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial: ...

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None: ...

    def on_error(self, error: BaseException) -> None: ...

    async def after_turn(self, touched_paths: set[str]) -> str | None: ...


class NoHooks:
    """The default: does nothing, amends nothing, never asks to keep going."""

    def session_start(self, session_id: str) -> None:
        return None

    def session_end(self, session_id: str) -> None:
        return None

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        return None

    def on_event(self, event: StreamEvent) -> None:
        return None

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        return call

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None:
        return None

    def on_error(self, error: BaseException) -> None:
        return None

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        return None
