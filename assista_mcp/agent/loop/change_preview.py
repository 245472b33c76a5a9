"""The whole change a write call would make, shown when the user is asked to approve it.

Computed over MCP like everything else: an ``edit_file`` is run with ``dry_run`` (it writes
nothing and answers with the diff), a ``write_file`` is compared with the file read through
``read_file``; a patch is its own diff. Anything else shows its arguments in full.
"""

from __future__ import annotations

import difflib
from typing import Any

from assista_mcp.agent.loop.tool_calls import PendingCall
from assista_mcp.agent.loop.toolset import ToolInfo, Toolset


async def describe_change(toolset: Toolset, tool: ToolInfo, call: PendingCall) -> str:
    """A unified diff of the call's change, or "" when only its arguments can say it."""
    arguments = call.arguments
    if call.registered == "apply_patch":
        patch = arguments.get("patch") or arguments.get("diff")
        return patch if isinstance(patch, str) else ""
    if call.registered == "edit_file":
        outcome = await toolset.call(tool, {**arguments, "dry_run": True})
        diff = (outcome.data or {}).get("diff")
        return diff if isinstance(diff, str) and not outcome.is_error else ""
    if call.registered == "write_file":
        return await _write_diff(toolset, tool, arguments)
    return ""


async def _write_diff(toolset: Toolset, tool: ToolInfo, arguments: dict[str, Any]) -> str:
    path, content = arguments.get("path"), arguments.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return ""
    if arguments.get("encoding") == "base64":
        return f"binary content for {path}: {len(content)} base64 characters"
    before = await _current_text(toolset, tool, path)
    label = "/dev/null" if before is None else f"a/{path}"
    return "".join(
        difflib.unified_diff(
            (before or "").splitlines(keepends=True),
            content.splitlines(keepends=True),
            fromfile=label,
            tofile=f"b/{path}",
        )
    )


async def _current_text(toolset: Toolset, write_tool: ToolInfo, path: str) -> str | None:
    """The file's text through the same server's ``read_file``; None when it does not exist."""
    reader = next(
        (t for t in toolset.tools.values() if t.server == write_tool.server and t.registered == "read_file"),
        None,
    )
    if reader is None:
        return None
    outcome = await toolset.call(reader, {"paths": path})
    if outcome.is_error:  # the parameter's newer name
        outcome = await toolset.call(reader, {"path": path})
    files = (outcome.data or {}).get("files") or []
    if outcome.is_error or not files or not isinstance(files[0], dict) or files[0].get("error"):
        return None
    content = files[0].get("content")
    return content if isinstance(content, str) else None
