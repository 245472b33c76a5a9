"""Turning a model's tool calls into checked, runnable calls, and grouping them for execution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assista_mcp.agent.loop.approvals import ToolKind
from assista_mcp.agent.loop.toolset import ToolInfo, Toolset
from assista_mcp.agent.model.client import ToolCall
from odoo_tools.errors import AssistaError, InvalidInput
from odoo_tools.files import patch_paths

PATH_KEYS = ("path", "source", "destination", "target", "new_path", "old_path", "file", "file_path")
PATCH_KEYS = ("patch", "diff")
MAX_LISTED_TOOLS = 60


@dataclass
class Prepared:
    """A call ready to run (``tool`` set) or already answered by an error for the model."""

    call: ToolCall
    tool: ToolInfo | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def kind(self) -> ToolKind:
        return self.tool.kind if self.tool else ToolKind.READ  # an error result touches nothing


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
        if item.kind is ToolKind.READ and groups and groups[-1][-1].kind is ToolKind.READ:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def touched_paths(arguments: dict[str, Any]) -> set[str]:
    """Paths a write call names: path-like arguments, and the targets of a unified diff."""
    paths: set[str] = set()
    for key in PATH_KEYS:
        if isinstance(arguments.get(key), str):
            paths.add(arguments[key])
    for value in arguments.get("paths") or []:
        if isinstance(value, str):
            paths.add(value)
    for key in PATCH_KEYS:
        if isinstance(arguments.get(key), str):
            paths.update(_patch_targets(arguments[key]))
    return paths


def _patch_targets(patch: str) -> list[str]:
    try:
        return patch_paths(patch)
    except AssistaError:  # a foreign tool's patch format: its paths are unknown to us
        return []
