"""The toolset: MCP tools offered to the model as function specs, argument checks, namespacing."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from assista_mcp.agent.loop.toolset import ServerSpec, Toolset, stdio_spec, url_spec
from assista_mcp.safety.effects import Effect
from odoo_tools.errors import ConfigError, InvalidInput
from tests.agent.tool_servers import build_test_server

pytestmark = pytest.mark.anyio


def _own(root: Path) -> ServerSpec:
    # Registered as our own server so tool names classify edits.
    return ServerSpec("assista", build_test_server(root), own=True)


async def test_tools_become_openai_function_specs_with_kinds(tmp_path: Path) -> None:
    async with Toolset([_own(tmp_path)]) as toolset:
        assert set(toolset.tools) == {"read_note", "write_file", "delete_file", "slow_task"}
        effects = {name: t.effect for name, t in toolset.tools.items()}
        assert effects["read_note"] is Effect.READ
        assert effects["write_file"] is Effect.EDIT
        assert effects["delete_file"] is Effect.DELETE
        assert effects["slow_task"] is Effect.OTHER
        specs = toolset.openai_specs({Effect.READ})
        assert [s["function"]["name"] for s in specs] == ["read_note"]
        assert specs[0]["function"]["parameters"]["required"] == ["path"]


async def test_call_returns_text_structured_data_and_errors(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")
    async with Toolset([_own(tmp_path)]) as toolset:
        read = toolset.tools["read_note"]
        ok = await toolset.call(read, {"path": "a.txt"})
        assert not ok.is_error and ok.data == {"text": "hello"}
        missing = await toolset.call(read, {"path": "nope.txt"})
        assert missing.is_error and "List notes first" in missing.text


async def test_arguments_are_checked_before_the_call(tmp_path: Path) -> None:
    async with Toolset([_own(tmp_path)]) as toolset:
        write = toolset.tools["write_file"]
        assert toolset.parse_arguments(write, '{"path": "x", "content": "y"}') == {
            "path": "x",
            "content": "y",
        }
        with pytest.raises(InvalidInput, match="not valid JSON"):
            toolset.parse_arguments(write, '{"path": "x", "content": ')
        with pytest.raises(InvalidInput, match="'content' is a required property"):
            toolset.parse_arguments(write, '{"path": "x"}')
        with pytest.raises(InvalidInput, match="path: 3 is not of type 'string'"):
            toolset.parse_arguments(write, '{"path": 3, "content": "y"}')
        with pytest.raises(InvalidInput, match="JSON object"):
            toolset.parse_arguments(write, "[1]")
    assert not (tmp_path / "x").exists()


async def test_several_servers_are_namespaced_and_stdio_works(tmp_path: Path, addons: Path) -> None:
    command = f"{shlex.quote(sys.executable)} -m assista_mcp serve --addons-path {shlex.quote(str(addons))}"
    taken = {"assista"}
    specs = [_own(tmp_path), stdio_spec(f"odoo={command}", taken)]
    async with Toolset(specs) as toolset:
        assert "assista__read_note" in toolset.tools
        remote = [t for t in toolset.tools.values() if t.server == "odoo"]
        assert remote and all(t.name == f"odoo__{t.remote_name}" for t in remote)
        # A foreign server's tools are "other", its readOnlyHint notwithstanding (not trusted).
        assert {t.effect for t in remote} == {Effect.OTHER}
        assert toolset.tools["odoo__read_file"].registered is None
        assert "odoo" in toolset.instructions


async def test_the_user_marks_foreign_tools_read_only(tmp_path: Path, addons: Path) -> None:
    command = f"{shlex.quote(sys.executable)} -m assista_mcp serve --addons-path {shlex.quote(str(addons))}"
    specs = [_own(tmp_path), stdio_spec(f"odoo={command}", {"assista"})]
    async with Toolset(specs, read_only_tools=["odoo__read_*", "odoo__grep"]) as toolset:
        assert toolset.tools["odoo__read_file"].effect is Effect.READ
        assert toolset.tools["odoo__grep"].effect is Effect.READ
        assert toolset.tools["odoo__list_directory"].effect is Effect.OTHER
        assert toolset.tools["odoo__write_file"].effect is Effect.OTHER


def test_server_spec_names() -> None:
    taken: set[str] = set()
    assert stdio_spec("npx -y server-a", taken).name == "npx"
    assert stdio_spec("npx -y server-b", taken).name == "npx2"
    assert url_spec("docs=http://127.0.0.1:9/mcp", taken).name == "docs"
    assert url_spec("http://127.0.0.1:9/mcp", taken).name == "127_0_0_1"
    with pytest.raises(InvalidInput, match="http"):
        url_spec("ftp://x", taken)
    with pytest.raises(InvalidInput, match="no command"):
        stdio_spec("   ", taken)


async def test_unreachable_server_is_a_config_error(tmp_path: Path) -> None:
    spec = stdio_spec("/nonexistent/bin/mcp-server", set())
    with pytest.raises(ConfigError, match="Could not connect"):
        async with Toolset([_own(tmp_path), spec]):
            pass


@pytest.mark.slow
async def test_streamable_http_server_by_url(tmp_path: Path, addons: Path) -> None:
    import socket
    import subprocess

    import anyio

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # --no-auth: this one is about the transport; test_mcp_url_auth.py sends the bearer token
    argv = [sys.executable, "-m", "assista_mcp", "serve", "--transport", "http", "--port", str(port)]
    argv.append("--no-auth")
    proc = await anyio.open_process([*argv, "--addons-path", str(addons)], stderr=subprocess.DEVNULL)
    try:
        with anyio.fail_after(120):
            while True:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", port)
                    await stream.aclose()
                    break
                except OSError:
                    assert proc.returncode is None, "assista-odoo serve exited"
                    await anyio.sleep(0.2)
        specs = [_own(tmp_path), url_spec(f"odoo=http://127.0.0.1:{port}/mcp", {"assista"})]
        async with Toolset(specs) as toolset:
            remote = toolset.tools["odoo__list_directory"]
            outcome = await toolset.call(remote, {"path": "."})
            assert not outcome.is_error and "library_base" in outcome.text
    finally:
        proc.terminate()
        with anyio.fail_after(30):
            await proc.wait()
