"""Clear errors for prompts and resources.

The SDK reports a failing prompt or resource read as "Internal server error", which tells a host
nothing. This middleware turns argument mistakes and our own errors into invalid-params errors
that carry the message (tool errors are already handled by ``tools._base``).
"""

from __future__ import annotations

from typing import Any

from mcp import MCPError
from mcp.types import INVALID_PARAMS

from odoo_tools.errors import AssistaError

GUARDED_METHODS = {"prompts/get": "list_prompts shows each prompt's arguments.", "resources/read": ""}


class ClearErrors:
    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        try:
            return await call_next(ctx)
        except MCPError:
            raise
        except Exception as exc:
            if ctx.method not in GUARDED_METHODS:
                raise
            message = _readable(exc)
            if message is None:
                raise
            hint = GUARDED_METHODS[ctx.method]
            raise MCPError(code=INVALID_PARAMS, message=f"{message} {hint}".strip()) from exc


def _readable(exc: BaseException) -> str | None:
    """Our error anywhere in the cause chain, else the SDK's own argument ValueError."""
    current: BaseException | None = exc
    while current is not None:
        if isinstance(current, AssistaError):
            return str(current)
        current = current.__cause__
    return str(exc) if isinstance(exc, ValueError) else None
