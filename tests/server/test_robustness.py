"""Bad input never crashes the server, and a slow tool never freezes it (in-memory Client).

Test tools are registered with the real ``register_tool`` on a server built by ``build_server``,
so errors, worker threads and annotations go through exactly the code real tools use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from assista_mcp.config.settings import Settings
from assista_mcp.safety import effects
from assista_mcp.server.mcp_server import INSTRUCTIONS, build_server
from assista_mcp.server.tools._base import ToolSpec, register_tool
from odoo_tools.errors import InvalidInput

pytestmark = pytest.mark.anyio


class Echo(BaseModel):
    text: str
    size: int


def echo_text(
    text: Annotated[str, Field(description="Text to send back")],
    repeat: Annotated[int, Field(description="How many times", ge=1, le=3)] = 1,
) -> Echo:
    """Send the text back (a test tool)."""
    return Echo(text=text * repeat, size=len(text) * repeat)


def refuse_input(reason: Annotated[str, Field(description="Why")]) -> Echo:
    """Always refuses, as a tool does for arguments it cannot use."""
    raise InvalidInput(f"Refused: {reason}.", "Pass something else.")


def crash_inside() -> Echo:
    """Fails with an unexpected exception, as a bug would."""
    raise KeyError("internal-detail")


def open_long_name(folder: Annotated[str, Field(description="Where")]) -> Echo:
    """Asks the OS for a file whose name is too long."""
    with open(Path(folder) / ("n" * 300)) as handle:
        return Echo(text=handle.read(), size=0)


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture
def server(server_for: Callable[..., MCPServer], addons: Path) -> MCPServer:
    built = server_for(addons)
    for fn in (echo_text, refuse_input, crash_inside, open_long_name):
        register_tool(built, fn, read_only=True, idempotent=True)
    return built


async def still_serving(client: Client) -> None:
    listed = await client.list_tools()
    assert "echo_text" in {tool.name for tool in listed.tools}
    result = await client.call_tool("echo_text", {"text": "ok"})
    assert not result.is_error and result.structured_content == {"text": "ok", "size": 2}


async def test_client_sees_the_server_instructions(server: MCPServer) -> None:
    async with Client(server) as client:
        assert client.instructions == INSTRUCTIONS
        assert "addons root" in (client.instructions or "")


async def test_unknown_tool_is_an_error_result(server: MCPServer) -> None:
    async with Client(server) as client:
        result = await client.call_tool("no_such_tool", {})
        assert result.is_error
        assert "no_such_tool" in text_of(result)
        await still_serving(client)


@pytest.mark.parametrize(
    ("arguments", "mentions"),
    [
        ({}, "text"),  # missing required
        ({"text": 5}, "text"),  # wrong type
        ({"text": ["a"]}, "text"),
        ({"text": None}, "text"),
        ({"text": "a", "repeat": "many"}, "repeat"),
        ({"text": "a", "repeat": 99}, "repeat"),  # out of range
        ({"text": "a", "repeat": 1.5}, "repeat"),
        ({"text": {"nested": {"deep": [1, 2, {"x": None}]}}}, "text"),
    ],
)
async def test_ill_formed_arguments_are_error_results(
    server: MCPServer, arguments: dict[str, object], mentions: str
) -> None:
    async with Client(server) as client:
        result = await client.call_tool("echo_text", arguments)
        assert result.is_error
        assert mentions in text_of(result)
        await still_serving(client)


async def test_unknown_extra_arguments_do_not_crash(server: MCPServer) -> None:
    async with Client(server) as client:
        result = await client.call_tool("echo_text", {"text": "a", "surprise": 1})
        assert text_of(result)  # an answer either way: accepted or a clear refusal
        await still_serving(client)


async def test_huge_argument_is_handled(server: MCPServer) -> None:
    big = "x" * 5_000_000
    async with Client(server) as client:
        result = await client.call_tool("echo_text", {"text": big})
        assert not result.is_error
        assert result.structured_content is not None and result.structured_content["size"] == len(big)
        await still_serving(client)


async def test_our_errors_carry_message_and_hint(server: MCPServer) -> None:
    async with Client(server) as client:
        result = await client.call_tool("refuse_input", {"reason": "too odd"})
        assert result.is_error
        assert "Refused: too odd." in text_of(result) and "Pass something else." in text_of(result)
        await still_serving(client)


async def test_an_unexpected_exception_is_reported_as_a_bug(server: MCPServer) -> None:
    async with Client(server) as client:
        result = await client.call_tool("crash_inside", {})
        assert result.is_error
        assert "crash_inside" in text_of(result) and "bug" in text_of(result)
        await still_serving(client)


async def test_an_os_refusal_is_explained_without_the_layout(server: MCPServer, tmp_path: Path) -> None:
    async with Client(server) as client:
        result = await client.call_tool("open_long_name", {"folder": str(tmp_path)})
        assert result.is_error
        text = text_of(result)
        assert "File name too long" in text and "bug" not in text
        assert str(tmp_path) not in text
        await still_serving(client)


class Maybe(BaseModel):
    note: str | None = Field(default=None, description="Optional text")
    counts: list[int | None] = Field(default_factory=list)
    either: int | str = 0


def maybe_values(filled: Annotated[bool, Field(description="Fill the optional fields")]) -> Maybe:
    """Returns optional fields empty or filled."""
    return Maybe(note="x", counts=[1, None], either="s") if filled else Maybe()


async def test_published_output_schema_uses_type_lists_and_still_validates(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    spec = ToolSpec(maybe_values, "Maybe values", effects.READ)
    server = build_server(make_settings(addons), extra_tools=[spec])
    async with Client(server) as client:
        [tool] = [t for t in (await client.list_tools()).tools if t.name == "maybe_values"]
        props = (tool.output_schema or {})["properties"]
        assert props["note"]["type"] == ["string", "null"] and "anyOf" not in props["note"]
        assert props["note"]["description"] == "Optional text"
        assert props["counts"]["items"]["type"] == ["integer", "null"]
        assert props["either"]["type"] == ["integer", "string"]
        # The client checks each result against the published schema, so these would raise.
        for filled in (True, False):
            result = await client.call_tool("maybe_values", {"filled": filled})
            assert not result.is_error
        assert result.structured_content == {"note": None, "counts": [], "either": 0}


class Gate:
    """A slow sync tool blocks on this until the test opens it; ``started`` says it is running."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = False


def add_slow_tool(server: MCPServer, gate: Gate) -> None:
    def slow_job(label: Annotated[str, Field(description="Anything")]) -> Echo:
        """Blocks its worker thread until released (a test tool)."""
        gate.started.set()
        assert gate.release.wait(timeout=120), "never released"
        gate.finished = True
        return Echo(text=label, size=len(label))

    register_tool(server, slow_job, read_only=True)


async def test_a_slow_tool_does_not_freeze_the_server(server: MCPServer) -> None:
    gate = Gate()
    add_slow_tool(server, gate)
    order: list[str] = []
    async with Client(server) as client:

        async def slow() -> None:
            result = await client.call_tool("slow_job", {"label": "slow"})
            assert not result.is_error
            order.append("slow done")

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow)
            await anyio.to_thread.run_sync(gate.started.wait, 60)
            # The slow call is running in its worker thread; the loop must answer the rest.
            await client.list_tools()
            order.append("list done")
            quick = await client.call_tool("echo_text", {"text": "quick"})
            assert not quick.is_error
            order.append("quick done")
            assert not gate.finished
            gate.release.set()
    assert order == ["list done", "quick done", "slow done"]
