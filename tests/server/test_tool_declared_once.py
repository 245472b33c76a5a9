"""A tool is declared once (its ToolSpec carries its effect), and a tool error is always an error
result a model can read: ``isError: true`` with one sentence, never pydantic's report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.config.settings import Settings
from assista_mcp.safety import effects
from assista_mcp.server import mcp_server
from assista_mcp.server.tools._base import ToolSpec

pytestmark = pytest.mark.anyio


def _text(result: Any) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


def test_the_registry_of_effects_is_derived_from_the_specs() -> None:
    assert dict(mcp_server.EFFECTS) == {spec.name: spec.effect for spec in mcp_server.TOOLS}
    assert len({spec.name for spec in mcp_server.TOOLS}) == len(mcp_server.TOOLS)
    assert mcp_server.tool_effect("write_file") is effects.WRITES_WHOLE
    assert mcp_server.tool_effect("no_such_tool") is effects.UNKNOWN


def count_books(flag: bool = False) -> str:
    """Counts the books (a tool of this test)."""
    return "0"


async def test_a_spec_s_effect_is_what_a_host_is_told(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    spec = ToolSpec(count_books, "Count books", effects.RUN_CODE)
    async with Client(mcp_server.build_server(make_settings(addons), extra_tools=[spec])) as client:
        [tool] = [t for t in (await client.list_tools()).tools if t.name == "count_books"]
    assert tool.meta == {effects.META_KEY: "run_code"}
    assert tool.annotations is not None and tool.annotations.title == "Count books"
    assert tool.annotations.destructive_hint and tool.annotations.open_world_hint
    assert not tool.annotations.read_only_hint


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"path": "/etc/passwd"}, "is outside the addons roots"),
        ({"path": "library_base/nothing_here.py"}, "No such file"),
        ({"paths": ["nope_a.py", "nope_b.py"]}, "No file could be read: nope_a.py: No such file"),
    ],
)
async def test_read_file_that_reads_nothing_is_an_error(
    server_for: Any, addons: Path, arguments: dict[str, Any], said: str
) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("read_file", arguments)
    assert result.is_error is True
    assert said in _text(result)


async def test_read_file_with_one_unreadable_file_of_two_is_data(server_for: Any, addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("read_file", {"paths": ["library_base/__manifest__.py", "nope.py"]})
    assert result.is_error is False
    files = result.structured_content["files"]
    assert files[0]["error"] is None and "No such file" in files[1]["error"]


async def test_write_outside_the_roots_is_an_error_too(server_for: Any, addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("write_file", {"path": "../outside.py", "content": "x"})
    assert result.is_error is True and "outside the addons roots" in _text(result)


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        (
            "read_file",
            {"path": 3},
            "Invalid arguments for read_file: path: Input should be a valid string (got 3).",
        ),
        ("find_model", {"model": ["a"]}, "find_model: model: Input should be a valid string (got ['a'])."),
        ("grep", {}, "grep: pattern: Field required."),
        ("list_directory", {"depth": -1}, "depth: Input should be greater than or equal to 0 (got -1)."),
    ],
)
async def test_a_validation_error_reads_as_one_sentence(
    server_for: Any, addons: Path, tool: str, arguments: dict[str, Any], said: str
) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool(tool, arguments)
    text = _text(result)
    assert result.is_error is True
    assert said in text
    assert "\n" not in text and "pydantic" not in text and "http" not in text
    assert "validation error for" not in text
