"""The whole change a write call would make, shown when the user is asked to approve it.

Computed over MCP like everything else: an ``edit_file`` is run with ``dry_run`` (it writes
nothing and answers with the diff), a ``write_file`` is compared with the file read through
``read_file``, a ``migrate_module(write=true)`` is dry-run (bounded); a patch is its own diff.
Anything else shows its arguments in full.

Content sent as base64 is shown decoded: as text when it is text, or when the file's name says
it is (a ``.py`` written as base64 is still code the user approves), else as its size and hash.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import hashlib
from pathlib import PurePosixPath
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
    if call.registered == "migrate_module" and arguments.get("write") is True:
        return await _migration_diff(toolset, tool, arguments)
    return ""


# A migration of many modules can change thousands of lines: the question shows this much of it.
MAX_MIGRATION_LINES = 2_000
MAX_MIGRATION_CHARS = 200_000


async def _migration_diff(toolset: Toolset, tool: ToolInfo, arguments: dict[str, Any]) -> str:
    """The diff ``migrate_module`` will write, from a dry run of the same call (it writes
    nothing), bounded; the terminal shows its control characters escaped, as every change."""
    outcome = await toolset.call(tool, {**arguments, "write": False})
    modules = (outcome.data or {}).get("modules")
    if outcome.is_error or not isinstance(modules, list):
        return ""
    diff = "".join(m["diff"] for m in modules if isinstance(m, dict) and isinstance(m.get("diff"), str))
    lines = diff.splitlines(keepends=True)
    shown = "".join(lines[:MAX_MIGRATION_LINES])[:MAX_MIGRATION_CHARS]
    if len(shown) == len(diff):
        return diff or "(no file changes: only the report)\n"
    left = len(diff) - len(shown)
    return (
        f"{shown.rstrip(chr(10))}\n[... {left} more characters of the diff ({len(lines)} lines in all) "
        "not shown: a dry run of migrate_module (write=false) shows the whole diff]\n"
    )


async def _write_diff(toolset: Toolset, tool: ToolInfo, arguments: dict[str, Any]) -> str:
    path, content = arguments.get("path"), arguments.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        return ""
    note = ""
    if arguments.get("encoding") == "base64":
        try:
            data = base64.b64decode(content, validate=True)  # as write_file decodes it
        except (binascii.Error, ValueError):
            return f"content for {path} is not valid base64 ({len(content)} characters): the call will fail"
        text = _as_text(data, path)
        if text is None:
            return f"binary content for {path}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}"
        content, note = text, f"(sent as base64, {len(data)} bytes, shown decoded{_utf8_note(data)})\n"
    before = await _current_text(toolset, tool, path)
    label = "/dev/null" if before is None else f"a/{path}"
    return note + "".join(
        difflib.unified_diff(
            (before or "").splitlines(keepends=True),
            content.splitlines(keepends=True),
            fromfile=label,
            tofile=f"b/{path}",
        )
    )


# Files whose content is text whatever bytes they hold: shown as text even when not valid UTF-8.
TEXT_SUFFIXES = frozenset(
    {".py", ".pyi", ".xml", ".csv", ".js", ".ts", ".json", ".po", ".pot", ".html", ".css", ".scss",
     ".rst", ".md", ".txt", ".cfg", ".conf", ".ini", ".toml", ".yml", ".yaml", ".sh", ".sql", ".svg"}
)  # fmt: skip


def _as_text(data: bytes, path: str) -> str | None:
    """``data`` as text when it is text (UTF-8 without NUL) or the file is a text file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and "\0" not in text:
        return text
    if PurePosixPath(path).suffix.lower() in TEXT_SUFFIXES:
        return data.decode("utf-8", "replace")
    return None


def _utf8_note(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "; not valid UTF-8, undecodable bytes shown as \ufffd"
    return ""


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
