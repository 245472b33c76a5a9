"""``assista-odoo serve`` as a real stdio subprocess: the SDK client, raw frames, a clean stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from assista_mcp.server.mcp_server import INSTRUCTIONS

from .conftest import SERVE, clean_env, stdio_params

HERE = Path(__file__).resolve().parent


@pytest.mark.anyio
async def test_sdk_client_over_stdio(addons: Path, tmp_path: Path) -> None:
    errlog = (tmp_path / "server-stderr.log").open("w+")
    with errlog:
        async with Client(stdio_client(stdio_params(addons, tmp_path), errlog=errlog)) as client:
            assert client.instructions == INSTRUCTIONS
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert names  # the tools of every area come through the one registry
            missing = await client.call_tool("no_such_tool", {})
            assert missing.is_error
            assert {tool.name for tool in (await client.list_tools()).tools} == names


def frame(ident: int | str | None, method: str, params: object = None) -> bytes:
    message: dict[str, object] = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode() + b"\n"


INITIALIZE = frame(
    1,
    "initialize",
    {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
)

# Lines a broken or hostile client might send. None of them may stop the server.
MALFORMED_LINES = [
    b"garbage",
    b"\xff\xfe\xfd not utf-8 \xc3\x28",
    b"{",
    b"[]",
    b"[1, 2, 3]",
    b"null",
    b"42",
    b'"a string"',
    b'{"jsonrpc":"2.0"}',
    b'{"jsonrpc":"1.0","id":50,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":51,"method":5}',
    b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
    b'{"jsonrpc":"2.0","id":52,"method":"tools/call","params":"not an object"}',
    b'{"jsonrpc":"2.0","id":53,"method":"tools/call","params":{"name":5}}',
    b'{"jsonrpc":"2.0","id":54,"method":"tools/call","params":{"name":"read_file","arguments":[1]}}',
    b'{"jsonrpc":"2.0","id":55,"method":"tools/call","params":{"name":"no_such_tool"}}',
    b'{"jsonrpc":"2.0","id":56,"method":"no/such/method"}',
    b'{"jsonrpc":"2.0","id":57,"result":{}}',
    b'{"jsonrpc":"2.0","id":58,"method":"ping","params":{"_meta":"x"}}',
    b'{"jsonrpc":"2.0","id":59,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"\\ud800"}}}',
    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope"}}',
    b"   ",
    b"{" * 10000,
    b'{"jsonrpc":"2.0","id":60,"method":"ping","params":{"x":"' + b"y" * 2_000_000 + b'"}}',
]


def read_frame(proc: subprocess.Popen[bytes]) -> dict[str, object]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, "server closed stdout"
    decoded: dict[str, object] = json.loads(line)  # every stdout line is a JSON-RPC frame
    return decoded


def test_raw_malformed_frames_do_not_stop_the_server(addons: Path, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(INITIALIZE)
        proc.stdin.flush()
        assert read_frame(proc)["id"] == 1
        proc.stdin.write(frame(None, "notifications/initialized"))
        for line in MALFORMED_LINES:
            proc.stdin.write(line + b"\n")
        # A request after all of them must be answered, and every frame before it must parse.
        proc.stdin.write(frame(99, "ping"))
        proc.stdin.flush()
        replies = []
        while True:
            reply = read_frame(proc)
            replies.append(reply)
            if reply.get("id") == 99:
                break
        assert replies[-1].get("result") == {}
        errors = {r["id"]: r["error"] for r in replies if "error" in r}
        # Every request whose id can be read is answered; the SDK alone left 50, 51, 52, 59 hanging.
        assert {50, 51, 52, 53, 54, 56, 58, 59} <= set(errors)
        assert errors[50]["code"] == errors[51]["code"] == errors[52]["code"] == -32600  # type: ignore[index]
        assert '"jsonrpc" must be "2.0"' in errors[50]["message"]  # type: ignore[index]
        assert '"params" must be an object' in errors[52]["message"]  # type: ignore[index]
        assert "not valid Unicode" in errors[59]["message"]  # type: ignore[index]
        assert None not in errors  # no reply to lines that name no request
        unknown = next(r for r in replies if r.get("id") == 55)
        assert unknown["result"]["isError"] is True  # type: ignore[index]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0  # EOF on stdin is a clean shutdown


def test_a_request_without_method_is_answered_and_not_logged_as_dropped(addons: Path, tmp_path: Path) -> None:
    # The README promises -32600 for a malformed request whose id can be read; an id-only frame
    # used to get no answer at all, and answered frames were logged as "dropped".
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stderr is not None
    try:
        proc.stdin.write(INITIALIZE)
        proc.stdin.flush()
        assert read_frame(proc)["id"] == 1
        proc.stdin.write(frame(None, "notifications/initialized"))
        proc.stdin.write(b'{"jsonrpc":"2.0","id":3}\n')
        proc.stdin.write(b'{"jsonrpc":"2.0","id":4,"result":{}}\n')  # a response: never answered
        proc.stdin.write(b"garbage\n")
        proc.stdin.write(frame(99, "ping"))
        proc.stdin.flush()
        replies = [read_frame(proc), read_frame(proc)]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    said = proc.stderr.read().decode()
    assert [r["id"] for r in replies] == [3, 99]
    assert replies[0]["error"]["code"] == -32600  # type: ignore[index]
    assert '"method" is missing' in replies[0]["error"]["message"]  # type: ignore[index]
    # One line each (the log handler may wrap the frame's text onto the next lines).
    assert said.count("dropped a malformed frame") == 1 and "garbage" in said
    assert said.count("answered a malformed request") == 1


def test_stdout_carries_frames_only_even_when_tools_print(addons: Path, tmp_path: Path) -> None:
    async def session() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=[str(HERE / "noisy_server.py"), str(addons)],
            env=clean_env(tmp_path),
            cwd=str(tmp_path),
        )
        errlog = (tmp_path / "noisy-stderr.log").open("w+")
        with errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                for _ in range(3):
                    result = await client.call_tool("print_noise", {})
                    assert not result.is_error and result.structured_content == {"done": True}
                await client.list_tools()
        said = (tmp_path / "noisy-stderr.log").read_text()
        assert all(f"NOISE from {w}" in said for w in ("print", "fd 1", "a child"))

    anyio.run(session)  # a corrupted frame would have failed the client's parsing above


@pytest.mark.anyio
async def test_slow_tool_does_not_block_other_requests_over_stdio(addons: Path, tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(HERE / "noisy_server.py"), str(addons)],
        env=clean_env(tmp_path),
        cwd=str(tmp_path),
    )
    order: list[str] = []
    async with Client(params) as client:

        async def slow() -> None:
            result = await client.call_tool("wait_for_release", {})
            assert result.structured_content == {"done": True}
            order.append("slow")

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow)
            started = await client.call_tool("waiter_started", {})
            assert started.structured_content == {"done": True}
            await client.list_tools()
            order.append("list")
            assert order == ["list"]  # the slow call is still pending
            await client.call_tool("release_waiter", {})
    assert order == ["list", "slow"]


def test_stdin_from_a_regular_file_is_served_too(addons: Path, tmp_path: Path) -> None:
    # Not a pipe: serve falls back to the SDK's threaded transport, which reads any file.
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(INITIALIZE + frame(None, "notifications/initialized") + frame(7, "ping"))
    with requests.open("rb") as stdin:
        done = subprocess.run(
            [*SERVE, "--addons-path", str(addons)],
            stdin=stdin,
            capture_output=True,
            env=clean_env(tmp_path),
            cwd=tmp_path,
            timeout=120,
        )
    assert done.returncode == 0
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["id"] == 1 and replies[0]["result"]["serverInfo"]["name"] == "assista-odoo"


def test_a_frame_over_the_size_cap_is_dropped_and_serving_goes_on(addons: Path, tmp_path: Path) -> None:
    from assista_mcp.server.stdio_transport import MAX_FRAME_BYTES

    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(INITIALIZE)
        proc.stdin.flush()
        assert read_frame(proc)["id"] == 1
        huge = b'{"jsonrpc":"2.0","id":70,"method":"ping","params":{"x":"' + b"y" * MAX_FRAME_BYTES + b'"}}\n'
        proc.stdin.write(huge)
        proc.stdin.write(frame(71, "ping"))
        proc.stdin.flush()
        assert read_frame(proc) == {"jsonrpc": "2.0", "id": 71, "result": {}}  # 70 was never buffered whole
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0


def test_client_closing_its_end_stops_the_server_cleanly(addons: Path, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    assert read_frame(proc)["id"] == 1
    proc.stdout.close()  # the host went away without closing our stdin first
    for ident in range(100, 110):
        proc.stdin.write(frame(ident, "ping"))
    proc.stdin.flush()
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()


def test_a_terminal_keeps_its_blocking_mode(addons: Path, tmp_path: Path) -> None:
    """On a terminal, serve must not set O_NONBLOCK: the flag is shared with the user's shell."""
    import os
    import pty

    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    try:
        os.write(controller, INITIALIZE)
        assert read_frame(proc)["id"] == 1  # serving, over the terminal
        assert os.get_blocking(terminal)
    finally:
        proc.kill()
        proc.wait(timeout=60)
        os.close(controller)
        os.close(terminal)
