"""How every tool is registered: annotations, errors a model can act on, work off the event loop."""

from __future__ import annotations

import functools
import inspect
import logging
import os
import traceback
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from odoo_tools.errors import AssistaError

log = logging.getLogger("assista_mcp.tools")


def register_tool(
    server: MCPServer,
    fn: Callable[..., Any],
    *,
    read_only: bool,
    destructive: bool = False,
    idempotent: bool = False,
    title: str | None = None,
) -> None:
    """Register ``fn`` (sync or async) as a tool named after the function.

    Sync functions run in a worker thread so a slow tool never freezes the server. Our own
    errors become error results carrying their message and hint; anything unexpected becomes an
    error result that says it is a bug, with the server still serving.
    """
    annotations = ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )
    server.add_tool(_guarded(fn), annotations=annotations)


def _guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    name = fn.__name__

    @functools.wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            if inspect.iscoroutinefunction(fn):
                return await fn(*args, **kwargs)
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
        except AssistaError as exc:
            raise ToolError(str(exc)) from exc
        except ToolError:
            raise
        except OSError as exc:  # the system refused (name too long, permissions, disk full, a race)
            raise ToolError(_os_refusal(name, exc)) from exc
        except Exception as exc:
            log.error("tool %s crashed:\n%s", name, traceback.format_exc())
            raise ToolError(
                f"Internal error in {name}: {type(exc).__name__}: {exc}. "
                "This is a bug in assista-odoo; try another approach and report it."
            ) from exc

    return call


def _os_refusal(tool: str, exc: OSError) -> str:
    """The OS's reason in words, naming only the file's last part (never the server's layout)."""
    target = os.path.basename(str(exc.filename)) if exc.filename else ""
    if len(target) > 60:
        target = target[:57] + "..."
    where = f" for {target!r}" if target else ""
    reason = exc.strerror or type(exc).__name__
    return (
        f"{tool} could not complete: the system refused{where}: {reason}. "
        "Check the path (length, permissions, that it still exists) and try again."
    )
