"""The one place we use a private name of the MCP SDK, and why.

``MCPServer`` serves a connection only over transports it opens itself (``run_stdio_async`` opens
the SDK's threaded ``stdio_server``; the HTTP apps their own). Our stdio transport drives stdin and
stdout from the event loop instead (see ``stdio_transport``), so it must hand its own streams to
the server, and the SDK has no public call for that: ``run_stdio_async`` and the SDK's own
in-memory client both reach ``MCPServer._lowlevel_server`` to do it. We do what
``run_stdio_async`` does, here and nowhere else; tests/server/test_sdk_contract.py fails when the
installed SDK is not ``SDK_VERIFIED`` or no longer works this way.
"""

from __future__ import annotations

from typing import Any

from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage

SDK_VERIFIED = "2.3.0"  # the mcp release this adapter and the stdio frame parsing were checked against


async def run_over_streams(
    server: MCPServer[Any],
    read_stream: MemoryObjectReceiveStream[SessionMessage | Exception],
    write_stream: MemoryObjectSendStream[SessionMessage],
) -> None:
    """Serve one connection over the given streams, with the lifespan and initialization options
    ``MCPServer.run_stdio_async`` uses."""
    lowlevel = server._lowlevel_server
    await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
