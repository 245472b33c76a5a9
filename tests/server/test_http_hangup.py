"""An HTTP client that hangs up in the middle of a tool call stops that call, as the README says:
the run is cancelled (odoo-bin ended, its database dropped) and the server goes on serving. Here the
client closes its socket without a word right after sending the call (test_signals.py closes an
httpx stream once odoo-bin runs)."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import pg, processes_mentioning, stub_odoo_bin
from tests.server.test_signals import _raw_session, odoo_flags, prefix_env, slow_odoo_bin

from .conftest import start_http_server, stop

__all__ = ["pg", "slow_odoo_bin", "stub_odoo_bin"]  # fixtures
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def _until(condition: Callable[[], bool], seconds: float) -> bool:
    for _ in range(int(seconds * 5)):
        if condition():
            return True
        await anyio.sleep(0.2)
    return condition()


@pytest.mark.anyio
async def test_a_client_that_drops_its_connection_before_the_tool_starts_stops_the_run(
    addons: Path, tmp_path: Path, pg: Pg, slow_odoo_bin: Path
) -> None:
    server = start_http_server(addons, tmp_path, *odoo_flags(slow_odoo_bin), env=prefix_env(pg))
    try:
        session = await _raw_session(server)
        call = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {
                    "name": "install_module",
                    "arguments": {"modules": "library_base", "use_cache": False},
                },
            }
        ).encode()
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {server.token}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"mcp-session-id: {session}\r\n"
            f"mcp-protocol-version: 2025-06-18\r\nContent-Length: {len(call)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            raw.sendall(head + call)  # and gone at once, before the tool even started
        assert await _until(lambda: bool(processes_mentioning(pg.prefix)), 60), "the call never started"
        # the socket is closed: the client hung up without a word
        assert await _until(lambda: not processes_mentioning(pg.prefix), 30), "odoo-bin still runs"
        assert await _until(lambda: not pg.list_ours(), 30), "the run's database is left"
        assert server.proc.poll() is None
    finally:
        stop(server.proc)
