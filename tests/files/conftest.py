"""Fixtures for the file tools: a Workspace over a private copy of the example addons, and an
MCP helper that calls a tool through the in-memory client and returns its result."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from odoo_tools.workspace import Workspace

BOOK = "library_base/models/library_book.py"


@pytest.fixture
def ws(addons: Path) -> Workspace:
    return Workspace([addons])


@pytest.fixture
def call(server_for: Callable[..., Any], addons: Path) -> Callable[..., Any]:
    """``await call(tool, **arguments)`` -> CallToolResult, over a fresh in-memory MCP client."""
    server = server_for(addons)

    async def invoke(tool: str, **arguments: Any) -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    return invoke


def error_text(result: Any) -> str:
    assert result.is_error, result
    return str(result.content[0].text)
