"""Binary files and text that is not UTF-8: every file tool answers clearly and loses nothing."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

pytestmark = pytest.mark.anyio

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01" + bytes(range(256))
LATIN1 = "# café, naïve, Ærø\nname = 'Bücher'\n".encode("latin-1")


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture
def files(addons: Path) -> dict[str, Path]:
    static = addons / "library_base" / "static"
    static.mkdir(exist_ok=True)
    made = {"png": static / "icon.png", "latin1": addons / "library_base" / "legacy.py"}
    made["png"].write_bytes(PNG)
    made["latin1"].write_bytes(LATIN1)
    return made


@pytest.fixture
async def client(server_for: Callable[..., MCPServer], addons: Path) -> AsyncIterator[Client]:
    async with Client(server_for(addons)) as connected:
        yield connected


def file_error(result: CallToolResult) -> str:
    """The error for the single file of a read_file call, whichever way the tool reports it."""
    if result.is_error:
        return text_of(result)
    assert result.structured_content is not None
    [entry] = result.structured_content["files"]
    assert entry["content"] is None
    return str(entry["error"])


@pytest.mark.parametrize("name", ["png", "latin1"])
async def test_read_file_refuses_non_utf8_as_text_with_a_next_step(
    client: Client, files: dict[str, Path], addons: Path, name: str
) -> None:
    rel = files[name].relative_to(addons).as_posix()
    message = file_error(await client.call_tool("read_file", {"paths": rel}))
    assert "base64" in message  # says how to read it after all
    assert files[name].read_bytes() == (PNG if name == "png" else LATIN1)


async def test_read_file_base64_returns_the_exact_bytes(client: Client, files: dict[str, Path]) -> None:
    result = await client.call_tool(
        "read_file", {"paths": "library_base/static/icon.png", "encoding": "base64"}
    )
    assert not result.is_error and result.structured_content is not None
    assert base64.b64decode(result.structured_content["files"][0]["content"]) == PNG


async def test_a_binary_file_in_a_batch_does_not_spoil_the_others(
    client: Client, files: dict[str, Path]
) -> None:
    paths = ["library_base/static/icon.png", "library_base/__manifest__.py"]
    result = await client.call_tool("read_file", {"paths": paths})
    assert not result.is_error and result.structured_content is not None
    entries = result.structured_content["files"]
    assert entries[0]["error"] and entries[1]["error"] is None and entries[1]["content"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        (
            "edit_file",
            {"path": "library_base/static/icon.png", "edits": [{"old_text": "PNG", "new_text": "GIF"}]},
        ),
        (
            "edit_file",
            {"path": "library_base/legacy.py", "edits": [{"old_text": "name", "new_text": "title"}]},
        ),
        (
            "apply_patch",
            {"patch": "--- a/library_base/legacy.py\n+++ b/library_base/legacy.py\n@@ -1 +1 @@\n-x\n+y\n"},
        ),
        (
            "write_file",
            {"path": "library_base/static/new.png", "content": "not base64!!", "encoding": "base64"},
        ),
    ],
)
async def test_changing_non_text_fails_clearly_and_writes_nothing(
    client: Client, files: dict[str, Path], addons: Path, tool: str, arguments: dict[str, object]
) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert "bug" not in text_of(result)
    assert files["png"].read_bytes() == PNG and files["latin1"].read_bytes() == LATIN1
    assert not (addons / "library_base" / "static" / "new.png").exists()


async def test_grep_skips_binary_and_survives_bad_text(client: Client, files: dict[str, Path]) -> None:
    result = await client.call_tool("grep", {"pattern": "PNG|Bücher|name", "path": "library_base"})
    assert not result.is_error and result.structured_content is not None
    matched = {m["path"] for m in result.structured_content["matches"]}
    assert "library_base/static/icon.png" not in matched
    assert "library_base/__manifest__.py" in matched


async def test_file_info_says_binary(client: Client, files: dict[str, Path]) -> None:
    result = await client.call_tool("file_info", {"path": "library_base/static/icon.png"})
    assert not result.is_error and result.structured_content is not None
    assert result.structured_content.get("binary", result.structured_content.get("is_binary")) is True
