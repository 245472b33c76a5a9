"""Issue J1: ``serve --transport http`` lets nobody in without the token, checks Host and Origin
for every bind address, stays on loopback unless told, and outlives a flood of half-requests."""

from __future__ import annotations

import json
import os
import resource
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest

from assista_mcp.cli import main

from .conftest import HttpServer, connect, start_http_server, stop

pytestmark = pytest.mark.anyio

PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


async def test_requests_without_the_token_get_401_with_a_bearer_challenge(http_server: HttpServer) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        missing = await http.post(http_server.url, headers=JSON, content=PING)
        wrong = await http.post(
            http_server.url, headers={**JSON, "authorization": "Bearer " + "x" * 43}, content=PING
        )
        other_path = await http.get(http_server.url.replace("/mcp", "/"))
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"].startswith("Bearer ")
    assert wrong.status_code == 401 and 'error="invalid_token"' in wrong.headers["www-authenticate"]
    assert other_path.status_code == 401  # no path answers without it


async def test_sdk_client_without_token_is_refused_and_with_it_works(http_server: HttpServer) -> None:
    with pytest.raises(Exception):  # noqa: B017 - the SDK wraps the 401 in its own error types
        async with connect(http_server, headers={}) as client:
            await client.list_tools()
    async with connect(http_server) as client:
        assert (await client.list_tools()).tools


def test_generated_token_file_is_private(http_server: HttpServer, tmp_path: Path) -> None:
    token_file = tmp_path / "home" / "http-auth-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert len(http_server.token) >= 32
    said = _stderr_so_far(http_server)
    assert http_server.token not in said and str(token_file) in said  # names the file, not the secret


async def test_mcp_config_writes_the_header_the_server_accepts(
    http_server: HttpServer, tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASSISTA_HOME", str(tmp_path / "home"))  # the server's data folder
    project = tmp_path / "project"
    project.mkdir()
    argv = ["mcp-config", "--client", "claude-code", "--transport", "http", "--url", http_server.url]
    assert main([*argv, "--write", "--project-dir", str(project)]) == 0
    written = project / ".mcp.json"
    token = (tmp_path / "home" / "http-auth-token").read_text().strip()
    assert token not in written.read_text()  # a project file names it, the host fills it in
    entry = json.loads(written.read_text())["mcpServers"]["assista-odoo"]
    assert entry["type"] == "http" and entry["url"] == http_server.url
    # What Claude Code sends once it expanded ${ASSISTA_AUTH_TOKEN} from its environment:
    headers = {k: v.replace("${ASSISTA_AUTH_TOKEN}", token) for k, v in entry["headers"].items()}
    async with connect(http_server, headers=headers) as client:
        assert (await client.list_tools()).tools


@pytest.fixture
def rebinding_target(request: pytest.FixtureRequest, addons: Path, tmp_path: Path) -> Iterator[HttpServer]:
    host: str = request.param
    extra = ("--allow-remote",) if host == "0.0.0.0" else ()
    server = start_http_server(addons, tmp_path, *extra, host=host)
    try:
        yield server
    finally:
        stop(server.proc)


@pytest.mark.parametrize("rebinding_target", ["127.0.0.1", "127.0.0.2", "127.1", "0.0.0.0"], indirect=True)
async def test_foreign_host_or_origin_is_refused_on_every_bind_address(rebinding_target: HttpServer) -> None:
    server = rebinding_target
    async with httpx.AsyncClient(timeout=60, headers=server.auth()) as http:
        foreign_host = await http.post(server.url, headers={**JSON, "host": "attacker.example"}, content=PING)
        foreign_origin = await http.post(
            server.url, headers={**JSON, "origin": "http://attacker.example"}, content=PING
        )
    assert foreign_host.status_code == 421
    assert foreign_origin.status_code == 403
    async with connect(server) as client:  # the printed URL's own host is accepted
        assert (await client.list_tools()).tools
    said = _stderr_so_far(server)
    assert "http://0.0.0.0" not in said and f":{server.port}/mcp" in said


@pytest.mark.parametrize(
    ("extra", "said"),
    [((), "--allow-remote"), (("--allow-remote", "--no-auth"), "Drop --no-auth")],
    ids=["without_allow_remote", "remote_without_auth"],
)
def test_binding_beyond_loopback_needs_allow_remote_and_auth(
    extra: tuple[str, ...], said: str, addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["serve", "--addons-path", str(addons), "--transport", "http", "--host", "0.0.0.0", *extra]
    assert main(argv) == 2
    assert said in capsys.readouterr().err


async def test_no_auth_serves_with_a_loud_warning(addons: Path, tmp_path: Path) -> None:
    server = start_http_server(addons, tmp_path, "--no-auth")
    try:
        async with connect(server, headers={}) as client:
            assert (await client.list_tools()).tools
        assert "WARNING: --no-auth" in _stderr_so_far(server)
    finally:
        stop(server.proc)


IDLE_CONNECTIONS = 300  # more than the server's descriptor limit below
SERVER_FD_LIMIT = 256


def _low_fd_limit() -> None:  # in the server's process, before exec
    resource.setrlimit(resource.RLIMIT_NOFILE, (SERVER_FD_LIMIT, SERVER_FD_LIMIT))


async def test_idle_half_requests_beyond_the_fd_limit_do_not_stop_serving(
    addons: Path, tmp_path: Path
) -> None:
    server = start_http_server(addons, tmp_path, preexec_fn=_low_fd_limit)
    idle: list[socket.socket] = []
    try:
        half_request = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Le".encode()
        for _ in range(IDLE_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(half_request)
            idle.append(sock)
        with anyio.fail_after(120):
            async with connect(server) as client:
                assert (await client.list_tools()).tools
        assert server.proc.poll() is None
    finally:
        for sock in idle:
            sock.close()
        stop(server.proc)


async def test_a_request_that_never_finishes_arriving_is_cut_off(addons: Path, tmp_path: Path) -> None:
    server = start_http_server(addons, tmp_path, "--request-timeout", "1")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
            started = time.monotonic()
            try:
                closed = sock.recv(1) == b""
            except ConnectionResetError:
                closed = True
        assert closed and time.monotonic() - started < 30  # the server hung up, we did not time out
    finally:
        stop(server.proc)


def _stderr_so_far(server: HttpServer) -> str:
    """What the server printed at start (its announcement lines are written before serving)."""
    assert server.proc.stderr is not None
    os.set_blocking(server.proc.stderr.fileno(), False)
    chunk = server.proc.stderr.read() or b""
    return chunk.decode(errors="replace")
