"""1200 malformed tool calls through the real stdio protocol; the server answers every one.

Each call gets an answer: an error result (``is_error``) or a JSON-RPC error, never a hang, a
dropped connection or an internal crash of one of our tools. Then a valid call must succeed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

from .conftest import stdio_params
from .fuzz_calls import CallFuzzer

CALLS = 1200
SEED = 20261121
# Tools that start Odoo or PostgreSQL work are fuzzed too: without odoo-bin they refuse fast.


@pytest.mark.anyio
@pytest.mark.slow
async def test_fuzzed_calls_never_break_the_server(addons: Path, tmp_path: Path) -> None:
    errlog = (tmp_path / "server-stderr.log").open("w+")
    crashes: list[str] = []
    answered = 0
    with errlog:
        params = stdio_params(addons, tmp_path)
        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as client:
            listed = await client.list_tools()
            schemas = {tool.name: tool.input_schema for tool in listed.tools}
            fuzzer = CallFuzzer(schemas, SEED)
            for _ in range(CALLS):
                name, arguments = fuzzer.next_call()
                try:
                    result = await client.call_tool(name, arguments)
                except MCPError:
                    answered += 1  # a JSON-RPC error is a clear answer too
                    continue
                answered += 1
                text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
                if result.is_error and "This is a bug in assista-odoo" in text:
                    crashes.append(f"{name}({sorted(arguments)}): {text[:300]}")
            assert answered == CALLS
            after = await client.list_tools()
            assert {t.name for t in after.tools} == set(schemas)
            await assert_valid_call_succeeds(client, set(schemas))
    assert not crashes, "tools crashed on bad input:\n" + "\n".join(crashes[:20])


async def assert_valid_call_succeeds(client: Client, names: set[str]) -> None:
    assert "read_file" in names
    result = await client.call_tool("read_file", {"paths": "library_base/__manifest__.py"})
    assert not result.is_error and result.structured_content is not None
    [read] = result.structured_content["files"]
    assert read["error"] is None and '"name"' in read["content"]
