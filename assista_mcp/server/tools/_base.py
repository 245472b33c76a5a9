"""How every tool is registered: annotations, errors a model can act on, work off the event loop."""

from __future__ import annotations

import functools
import inspect
import logging
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import ValidationError

from assista_mcp.safety.effects import ToolEffect
from assista_mcp.server.tools._text import readable
from odoo_tools.errors import AssistaError, InvalidInput
from odoo_tools.storage import reserved_name

log = logging.getLogger("assista_mcp.server.tools")


@dataclass(frozen=True)
class ToolSpec:
    """One tool, declared once: its function (named as the tool), a title for people and what it
    does (read, edit, delete, run project code: an ``assista_mcp.safety.effects`` effect). The MCP
    annotations, the ``_meta`` effect marker and the server's registry of effects by name (which
    the agent's approvals read) are derived from it."""

    fn: Callable[..., Any]
    title: str
    effect: ToolEffect

    @property
    def name(self) -> str:
        return self.fn.__name__

    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(title=self.title, **self.effect.annotation_hints())

    def build(self) -> Tool:
        """The SDK's ``Tool`` for this function, guarded (see ``_guarded``), with a compact schema.

        Sync functions run in a worker thread so a slow tool never freezes the server. Our own
        errors become error results carrying their message and hint; anything unexpected becomes
        an error result that says it is a bug, with the server still serving. The description is
        the docstring without its source indentation.
        """
        tool = _ReadableArgumentErrors.from_function(
            _guarded(self.fn, as_text=True),
            title=self.title,
            description=inspect.cleandoc(self.fn.__doc__ or ""),
            annotations=self.annotations(),
            meta=self.effect.meta(),
        )
        if tool.fn_metadata.output_schema is not None:
            _compact_nullable_types(tool.fn_metadata.output_schema)
        return tool


class _ReadableArgumentErrors(Tool):
    """The SDK's ``Tool``, whose answer to arguments that do not fit the schema is one sentence
    naming each wrong argument, instead of pydantic's report with its web links."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):  # the SDK's check of the arguments
                raise ToolError(argument_errors(self.name, exc.__cause__)) from exc.__cause__
            raise


def argument_errors(tool: str, exc: ValidationError) -> str:
    """``read_file`` got 3 for ``path`` -> "Invalid arguments for read_file: path: Input should be a
    valid string (got 3). Check the tool's input schema." """
    said = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        got = "" if error["type"] == "missing" else f" (got {_short(error.get('input'))})"
        said.append(f"{where}: {error['msg']}{got}")
    return f"Invalid arguments for {tool}: {'; '.join(said)}. Check the tool's input schema."


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def register_tool(
    server: MCPServer,
    fn: Callable[..., Any],
    *,
    read_only: bool,
    destructive: bool = False,
    idempotent: bool = False,
    title: str | None = None,
) -> None:
    """Add one more guarded tool to a built server (test servers; ours are listed in ``server``)."""
    annotations = ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )
    server.add_tool(_guarded(fn), title=title, annotations=annotations)


def one_or_many(one: str | None, many: list[str] | str | None, noun: str) -> list[str]:
    """The values of a ``noun``/``nouns`` parameter pair: one by the singular, several by the plural."""
    if one is not None and many is not None:
        raise InvalidInput(
            f"Both {noun} and {noun}s were given.",
            f"Pass {noun}='x' for one, or {noun}s=['x', 'y'] for several.",
        )
    if one is not None:
        return [one]
    if many is None:
        raise InvalidInput(
            f"No {noun} given.", f"Pass {noun}='x' for one, or {noun}s=['x', 'y'] for several."
        )
    return [many] if isinstance(many, str) else list(many)


def _compact_nullable_types(node: Any) -> None:
    """Rewrite ``{"anyOf": [{"type": "string"}, {"type": "null"}]}`` as ``{"type": ["string", "null"]}``.

    In place, and the same schema: but every SDK client checks structured results against the
    output schema with jsonschema, which builds a sub-validator per ``anyOf`` branch; with type
    lists the check of a read_file result takes about half the time (a per-call client cost).
    """
    if isinstance(node, list):
        for item in node:
            _compact_nullable_types(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _compact_nullable_types(value)
    branches = node.get("anyOf")
    if (
        isinstance(branches, list)
        and branches
        and "type" not in node
        and all(isinstance(b, dict) and b.keys() == {"type"} and isinstance(b["type"], str) for b in branches)
    ):
        del node["anyOf"]
        node["type"] = [b["type"] for b in branches]


def _guarded(fn: Callable[..., Any], *, as_text: bool = False) -> Callable[..., Any]:
    """``as_text``: a model answer without its own text gets one (see ``_text.readable``)."""
    name = fn.__name__
    is_async = inspect.iscoroutinefunction(fn)  # once, not on every call

    @functools.wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            if is_async:
                result = await fn(*args, **kwargs)
            else:
                result = await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
            return readable(result) if as_text else result
        except AssistaError as exc:
            raise ToolError(str(exc)) from exc
        except ToolError:
            raise
        except OSError as exc:  # the system refused (name too long, permissions, disk full, a race)
            raise ToolError(_os_refusal(name, exc, kwargs.get("path"))) from exc
        except Exception as exc:
            log.error("tool %s crashed:\n%s", name, traceback.format_exc())
            raise ToolError(
                f"Internal error in {name}: {type(exc).__name__}: {exc}. "
                "This is a bug in assista-odoo; try another approach and report it."
            ) from exc

    return call


def _os_refusal(tool: str, exc: OSError, user_path: object = None) -> str:
    """The OS's reason in words, naming the path the caller gave (else the file's last part, never
    the server's layout nor the temporary file a write goes through)."""
    target = os.path.basename(str(exc.filename)) if exc.filename else ""
    if isinstance(user_path, str) and user_path:
        target = user_path
    elif reserved_name(target):
        target = ""
    if len(target) > 60:
        target = "..." + target[-57:]  # the end names the file
    where = f" for {target!r}" if target else ""
    reason = exc.strerror or type(exc).__name__
    return (
        f"{tool} could not complete: the system refused{where}: {reason}. "
        "Check the path (length, permissions, that it still exists) and try again."
    )
