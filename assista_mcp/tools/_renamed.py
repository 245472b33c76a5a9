"""Parameters renamed so every tool speaks one language; the old names work for one more release.

The convention: a parameter is named after what it holds, singular for one value and plural for
several (``path``/``paths``, ``module``/``modules``, ``model``, ``field``, ``series``). A call that
still uses an old name is rewritten before the SDK validates it (so the published schemas carry
only the new names) and its result says which name to use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from mcp.types import CallToolResult, TextContent

RENAMED: dict[str, dict[str, str]] = {
    "module_info": {"name": "module"},
    "find_model": {"name": "model"},
    "get_guidelines": {"version": "series"},
}
RENAMED_PROMPT_ARGUMENTS: dict[str, dict[str, str]] = {"odoo_developer": {"version": "series"}}
TABLES = {"tools/call": RENAMED, "prompts/get": RENAMED_PROMPT_ARGUMENTS}


class RenamedArguments:
    """Server middleware: a tool call (or prompt) with an old parameter name runs as the new one."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        params, table = ctx.params, TABLES.get(ctx.method)
        if table is None or not isinstance(params, Mapping):
            return await call_next(ctx)
        tool, arguments = params.get("name"), params.get("arguments")
        renames = table.get(tool) if isinstance(tool, str) else None
        if not renames or not isinstance(arguments, Mapping):
            return await call_next(ctx)
        used = {old: new for old, new in renames.items() if old in arguments and new not in arguments}
        if not used:
            return await call_next(ctx)
        moved = {used.get(key, key): value for key, value in arguments.items()}
        result = await call_next(replace(ctx, params={**params, "arguments": moved}))
        return _with_note(result, deprecation_note(str(tool), used))


def deprecation_note(tool: str, used: Mapping[str, str]) -> str:
    names = ", ".join(f"`{old}` is now `{new}`" for old, new in used.items())
    return f"Deprecated parameter name in {tool}: {names}. The old name works until the next release."


def _with_note(result: Any, note: str) -> Any:
    if isinstance(result, CallToolResult):
        return result.model_copy(update={"content": [*result.content, TextContent(type="text", text=note)]})
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        return {**result, "content": [*result["content"], {"type": "text", "text": note}]}
    return result
