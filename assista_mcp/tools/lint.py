"""MCP tools: lint (being built)."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from assista_mcp.context import AppContext


def register(server: MCPServer, ctx: AppContext) -> None:
    """Add this group's tools to the server."""
