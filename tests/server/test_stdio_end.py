"""A host that closes the server's stdin ends it normally: at once, quietly, exit 0."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from mcp import Client
from mcp.client import stdio
from mcp.client.stdio import stdio_client

from .conftest import stdio_params


@pytest.mark.anyio
async def test_stdin_eof_after_a_check_is_a_normal_quick_end(addons: Path, tmp_path: Path) -> None:
    # The SDK's client waits PROCESS_TERMINATION_TIMEOUT after closing stdin, then terminates the
    # server, which then said "assista-odoo: interrupted": the index a check builds took ~2 s to
    # collect at exit.
    log = tmp_path / "server-stderr.log"
    with log.open("w+") as errlog:
        async with Client(stdio_client(stdio_params(addons, tmp_path), errlog=errlog)) as client:
            result = await client.call_tool("check_module", {"module": "library_base"})
            assert not result.is_error
            closing = time.monotonic()
    took = time.monotonic() - closing
    assert took < stdio.PROCESS_TERMINATION_TIMEOUT, f"the server needed {took:.1f}s to end"
    assert "interrupted" not in log.read_text()
