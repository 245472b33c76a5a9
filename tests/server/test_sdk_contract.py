"""Our stdio transport (assista_mcp/server/stdio_transport.py) copies how the SDK parses frames, and
assista_mcp/server/sdk_adapter.py reaches one private attribute. These checks fail loudly when the
installed SDK is not the one they were written against, or no longer works the way the copy assumes:
re-read the SDK, adapt those two files, then bump ``SDK_VERIFIED``."""

from __future__ import annotations

import inspect
from importlib.metadata import version

import mcp.server.stdio
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer

from assista_mcp.server.sdk_adapter import SDK_VERIFIED


def test_the_installed_sdk_is_the_one_the_stdio_transport_was_checked_against() -> None:
    installed = version("mcp")
    assert installed == SDK_VERIFIED, (
        f"mcp {installed} is installed, sdk_adapter.py was checked against {SDK_VERIFIED}: "
        "re-check it against the new SDK (this file says what), then update SDK_VERIFIED."
    )


def test_mcpserver_still_serves_stdio_through_its_lowlevel_server() -> None:
    # sdk_adapter.run_over_streams does exactly this, over our own streams.
    source = inspect.getsource(MCPServer.run_stdio_async)
    assert "stdio_server()" in source
    assert "self._lowlevel_server.run(" in source
    assert "self._lowlevel_server.create_initialization_options()" in source
    server: MCPServer = MCPServer("probe")
    lowlevel = server._lowlevel_server
    assert isinstance(lowlevel, Server)
    assert list(inspect.signature(lowlevel.run).parameters)[:3] == [
        "read_stream",
        "write_stream",
        "initialization_options",
    ]
    assert callable(lowlevel.create_initialization_options)


def test_frames_are_parsed_the_way_the_sdk_parses_them() -> None:
    # _pump_in validates each line with the same adapter and options as the SDK's stdio_server.
    source = inspect.getsource(mcp.server.stdio.stdio_server)
    assert "types.jsonrpc_message_adapter.validate_json(line, by_name=False)" in source
    assert "model_dump_json(by_alias=True, exclude_unset=True)" in source
