"""A small MCP server with test tools, for loop and toolset tests (an MCP-boundary stand-in).

The file tools of our own server are exercised end to end elsewhere; these tools give the loop
tests exact control: a quick read, a write into a tmp dir, a delete, and a slow tool whose
cancellation is observable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from assista_mcp.server.tools._base import register_tool
from odoo_tools.errors import NotFound


class Note(BaseModel):
    text: str


class Written(BaseModel):
    path: str
    diff: str


class SlowState:
    def __init__(self) -> None:
        self.started = anyio.Event()
        self.cancelled = False
        self.finished = False


def build_test_server(root: Path, slow: SlowState | None = None) -> MCPServer:
    server = MCPServer("test-tools")
    slow = slow or SlowState()

    def read_note(path: Annotated[str, Field(description="file under the root")]) -> Note:
        """Read a note."""
        target = root / path
        if not target.is_file():
            raise NotFound(f"No note {path}.", "List notes first.")
        return Note(text=target.read_text(encoding="utf-8"))

    def write_file(
        path: Annotated[str, Field(description="file under the root")],
        content: Annotated[str, Field(description="new content")],
    ) -> Written:
        """Write a note (an edit)."""
        (root / path).write_text(content, encoding="utf-8")
        return Written(path=path, diff=f"+++ {path}\n+{content}")

    def delete_file(path: Annotated[str, Field(description="file under the root")]) -> Note:
        """Delete a note."""
        (root / path).unlink()
        return Note(text=f"deleted {path}")

    async def slow_task(seconds: Annotated[float, Field(description="how long")]) -> Note:
        """Take a while (like an Odoo install)."""
        slow.started.set()
        (root / "slow.started").write_text("", encoding="utf-8")  # seen across processes too
        try:
            await anyio.sleep(seconds)
        except BaseException:
            slow.cancelled = True
            (root / "slow.cancelled").write_text("", encoding="utf-8")
            raise
        slow.finished = True
        return Note(text="slow done")

    register_tool(server, read_note, read_only=True)
    register_tool(server, write_file, read_only=False)
    register_tool(server, delete_file, read_only=False, destructive=True)
    register_tool(server, slow_task, read_only=False)
    return server


if __name__ == "__main__":  # a stdio MCP server: python -m tests.agent.tool_servers ROOT
    import sys

    build_test_server(Path(sys.argv[1])).run("stdio")
