"""Turning a model's tool calls into checked, runnable calls, and grouping them for execution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from assista_mcp.agent.loop.toolset import ToolInfo, Toolset
from assista_mcp.agent.model.client import ModelReply, ToolCall
from assista_mcp.safety.effects import Effect, PathEffects
from assista_mcp.server.mcp_server import tool_effect
from odoo_tools.errors import InvalidInput

MAX_LISTED_TOOLS = 60


class PendingCall(BaseModel):
    """A tool call about to run, with its arguments parsed and checked.

    ``effect`` and ``paths`` follow the arguments: a hook that amends them changes what the call
    is approved, checkpointed and validated as.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    registered: str | None = Field(default=None, description="our server's tool name, in the registry")
    tool_effect: Effect = Effect.OTHER

    @property
    def effect(self) -> Effect:
        return (
            tool_effect(self.registered).call_effect(self.arguments) if self.registered else self.tool_effect
        )

    @property
    def paths(self) -> PathEffects:
        """The paths the call writes or deletes; unknown (none) for a foreign tool."""
        return tool_effect(self.registered).paths(self.arguments) if self.registered else PathEffects()


class Denial(BaseModel):
    """Returned by ``before_tool_call`` to stop a call; the reason goes back to the model."""

    reason: str


@dataclass
class Prepared:
    """A call ready to run (``tool`` set) or already answered by an error for the model."""

    call: ToolCall
    tool: ToolInfo | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def pending(self) -> PendingCall:
        tool = self.tool
        return PendingCall(
            id=self.call.id,
            name=self.call.name,
            arguments=self.arguments,
            registered=tool.registered if tool else None,
            tool_effect=tool.effect if tool else Effect.OTHER,
        )

    @property
    def effect(self) -> Effect:
        if self.tool is None or self.error is not None:
            return Effect.READ  # an error result touches nothing
        return self.pending().effect


def prepare_calls(calls: list[ToolCall], toolset: Toolset) -> list[Prepared]:
    return [_prepare(call, toolset) for call in calls]


def _prepare(call: ToolCall, toolset: Toolset) -> Prepared:
    tool = toolset.tools.get(call.name)
    if tool is None:
        names = ", ".join(list(toolset.tools)[:MAX_LISTED_TOOLS])
        return Prepared(call, error=f"Unknown tool {call.name!r}. Available tools: {names}.")
    try:
        arguments = toolset.parse_arguments(tool, call.arguments)
    except InvalidInput as exc:
        return Prepared(call, tool=tool, error=str(exc))
    return Prepared(call, tool=tool, arguments=arguments)


def read_groups(prepared: list[Prepared]) -> list[list[Prepared]]:
    """Consecutive read-only calls form one group (run concurrently); every other call is alone."""
    groups: list[list[Prepared]] = []
    for item in prepared:
        if item.effect is Effect.READ and groups and groups[-1][-1].effect is Effect.READ:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def with_unique_ids(reply: ModelReply, step: int, taken: set[str]) -> ModelReply:
    """Some models send empty ids, or ids repeated within an answer or across the session (the
    stream's stand-ins restart at call_1); results must pair with exactly one call."""
    seen = set(taken)
    calls = []
    for index, call in enumerate(reply.tool_calls):
        call_id = call.id if call.id and call.id not in seen else f"call_{step}_{index + 1}"
        seen.add(call_id)
        calls.append(call.model_copy(update={"id": call_id}))
    return reply.model_copy(update={"tool_calls": calls})
