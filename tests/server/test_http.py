"""``assista-odoo serve --transport http`` as a subprocess, reached with ``Client(url)``."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from assista_mcp.server.mcp_server import INSTRUCTIONS

from .conftest import HttpServer, connect

pytestmark = pytest.mark.anyio

ROWS = 40
TARGET = "library_base/concurrent.txt"


def row(index: int, state: str) -> str:
    return f"row-{index:03d} = {state}"


async def test_http_client_sees_instructions_and_tools(http_server: HttpServer, addons: Path) -> None:
    async with connect(http_server) as client:
        assert client.instructions == INSTRUCTIONS
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"read_file", "edit_file", "apply_patch"} <= names
        result = await client.call_tool("read_file", {"paths": "library_base/__manifest__.py"})
        assert not result.is_error and result.structured_content is not None
        assert result.structured_content["files"][0]["error"] is None


async def test_two_http_clients_editing_one_file_lose_no_update(
    http_server: HttpServer, addons: Path
) -> None:
    (addons / TARGET).write_text("".join(row(i, "old") + "\n" for i in range(ROWS)))

    async def edit_even_rows() -> None:
        async with connect(http_server) as client, anyio.create_task_group() as tg:
            for i in range(0, ROWS, 2):
                tg.start_soon(edit_one, client, i)

    async def edit_one(client: Client, i: int) -> None:
        edits = [{"old_text": row(i, "old"), "new_text": row(i, "edited")}]
        result = await client.call_tool("edit_file", {"path": TARGET, "edits": edits})
        assert not result.is_error, result.content

    async def patch_odd_rows() -> None:
        async with connect(http_server) as client, anyio.create_task_group() as tg:
            for i in range(1, ROWS, 2):
                tg.start_soon(patch_one, client, i)

    async def patch_one(client: Client, i: int) -> None:
        hunk = f"@@ -{i + 1} +{i + 1} @@\n-{row(i, 'old')}\n+{row(i, 'patched')}\n"
        patch = f"--- a/{TARGET}\n+++ b/{TARGET}\n{hunk}"
        result = await client.call_tool("apply_patch", {"patch": patch})
        assert not result.is_error, result.content

    async with anyio.create_task_group() as tg:
        tg.start_soon(edit_even_rows)
        tg.start_soon(patch_odd_rows)

    expected = [row(i, "edited" if i % 2 == 0 else "patched") for i in range(ROWS)]
    assert (addons / TARGET).read_text().splitlines() == expected


JSON_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


async def test_malformed_http_requests_get_4xx_and_serving_goes_on(http_server: HttpServer) -> None:
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    attempts: list[tuple[dict[str, str], bytes]] = [
        (JSON_HEADERS, b"garbage"),
        (JSON_HEADERS, b"\xff\xfe not utf-8"),
        (JSON_HEADERS, b"[1, 2, 3]"),
        (JSON_HEADERS, b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}'),
        ({"content-type": "text/plain"}, ping),
        ({**JSON_HEADERS, "host": "attacker.example"}, ping),  # DNS rebinding: refused
        (JSON_HEADERS, b'{"x":"' + b"a" * 20_000_000 + b'"}'),  # over the body cap
    ]
    async with httpx.AsyncClient(timeout=60, headers=http_server.auth()) as http:
        for headers, body in attempts:
            response = await http.post(http_server.url, headers=headers, content=body)
            assert 400 <= response.status_code < 500, (headers, body[:60], response.status_code)
    async with connect(http_server) as client:
        assert (await client.list_tools()).tools
