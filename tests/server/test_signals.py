"""Issue J7: SIGTERM and SIGHUP clean up like Ctrl-C, and an HTTP client that walks away cancels.

Each test starts a slow install through the real command (``serve`` over stdio or HTTP, ``odoo``,
``check``) with the stand-in odoo-bin, waits until the stand-in runs against its database, then
stops the command; afterwards no process mentions the test's database prefix and no database
with that prefix is left (the ``pg`` fixture asserts that too).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx
import pytest
from mcp.shared.exceptions import MCPError

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import processes_mentioning

from .conftest import SERVE, HttpServer, clean_env, connect, start_http_server, stop

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

STEP_DELAY = "0.4"  # seconds per log line of the stand-in: an install takes many seconds


@pytest.fixture
def slow_odoo_bin(tmp_path: Path, stub_odoo_bin: Path) -> Path:
    """The stand-in odoo-bin, paced slowly (our runner passes odoo-bin no variables of ours)."""
    wrapper = tmp_path / "slow-odoo" / "odoo-bin"
    wrapper.parent.mkdir()
    wrapper.write_text(
        "import os, runpy, sys\n"
        f"os.environ['ASSISTA_STUB_DELAY'] = {STEP_DELAY!r}\n"
        f"sys.argv[0] = {str(stub_odoo_bin)!r}\n"
        f"runpy.run_path({str(stub_odoo_bin)!r}, run_name='__main__')\n"
    )
    return wrapper


def odoo_flags(slow_odoo_bin: Path) -> list[str]:
    return ["--odoo-bin", str(slow_odoo_bin), "--odoo-python", sys.executable, "--odoo-timeout", "300"]


def prefix_env(pg: Pg) -> dict[str, str]:
    return {"ASSISTA_DB_PREFIX": pg.prefix}


def env_for(tmp_path: Path, pg: Pg) -> dict[str, str]:
    return {**clean_env(tmp_path), **prefix_env(pg)}


def wait_until(condition: Callable[[], bool], seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.1)


def assert_cleaned_up(pg: Pg) -> None:
    wait_until(lambda: not processes_mentioning(pg.prefix), 60)
    assert pg.list_ours() == []


def test_sigterm_stops_a_stdio_server_mid_install_and_cleans_up(
    addons: Path, tmp_path: Path, pg: Pg, slow_odoo_bin: Path
) -> None:
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons), *odoo_flags(slow_odoo_bin)],
        env=env_for(tmp_path, pg),
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        _start_install_over_stdio(proc)
        wait_until(lambda: bool(processes_mentioning(pg.prefix)))
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        assert_cleaned_up(pg)
    finally:
        stop(proc)


def _start_install_over_stdio(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    frames = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "install_module",
                "arguments": {"modules": "library_base", "use_cache": False},
            },
        },
    ]
    proc.stdin.write(json.dumps(frames[0]).encode() + b"\n")
    proc.stdin.flush()
    assert b'"id":1' in proc.stdout.readline()  # initialized
    for frame in frames[1:]:
        proc.stdin.write(json.dumps(frame).encode() + b"\n")
    proc.stdin.flush()


@pytest.mark.anyio
async def test_sigterm_stops_an_http_server_mid_install_and_cleans_up(
    addons: Path, tmp_path: Path, pg: Pg, slow_odoo_bin: Path
) -> None:
    server = start_http_server(addons, tmp_path, *odoo_flags(slow_odoo_bin), env=prefix_env(pg))
    try:
        async with connect(server) as client, anyio.create_task_group() as group:

            async def install() -> None:
                with contextlib.suppress(MCPError):  # the server went away mid-call: expected
                    await client.call_tool("install_module", {"modules": "library_base", "use_cache": False})

            group.start_soon(install)
            await _wait_async(lambda: bool(processes_mentioning(pg.prefix)))
            server.proc.send_signal(signal.SIGTERM)
            await anyio.to_thread.run_sync(lambda: server.proc.wait(60))
            group.cancel_scope.cancel()
        assert_cleaned_up(pg)
    finally:
        stop(server.proc)


async def _wait_async(condition: Callable[[], bool], seconds: float = 120) -> None:
    await anyio.to_thread.run_sync(wait_until, condition, seconds)


@pytest.mark.anyio
@pytest.mark.parametrize("how", ["close_connection", "delete_session"])
async def test_http_client_that_abandons_a_call_cancels_the_run(
    how: str, addons: Path, tmp_path: Path, pg: Pg, slow_odoo_bin: Path
) -> None:
    server = start_http_server(addons, tmp_path, *odoo_flags(slow_odoo_bin), env=prefix_env(pg))
    try:
        session = await _raw_session(server)
        headers = {**server.auth(), **JSON, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "install_module",
                "arguments": {"modules": "library_base", "use_cache": False},
            },
        }
        async with (
            httpx.AsyncClient(timeout=60) as http,
            http.stream("POST", server.url, headers=headers, json=call),
        ):
            await _wait_async(lambda: bool(processes_mentioning(pg.prefix)))
            if how == "delete_session":
                await http.delete(server.url, headers=headers)
        # leaving the block closed the response: the client hung up
        await _wait_async(lambda: not processes_mentioning(pg.prefix), 60)
        await _wait_async(lambda: not pg.list_ours(), 60)
        assert server.proc.poll() is None  # still serving
    finally:
        stop(server.proc)


JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


async def _raw_session(server: HttpServer) -> str:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    async with httpx.AsyncClient(timeout=60, headers={**server.auth(), **JSON}) as http:
        response = await http.post(server.url, json=init)
        session: str = response.headers["mcp-session-id"]
        headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        await http.post(
            server.url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"}
        )
    return session


@pytest.mark.parametrize(
    ("command", "sig"),
    [
        (["odoo", "install", "library_base", "--no-cache"], signal.SIGHUP),
        (["check", "library_base", "--install", "--checks", "static", "--no-cache"], signal.SIGTERM),
    ],
    ids=["odoo_sighup", "check_sigterm"],
)
def test_cli_commands_clean_up_on_sigterm_and_sighup(
    command: list[str], sig: signal.Signals, addons: Path, tmp_path: Path, pg: Pg, slow_odoo_bin: Path
) -> None:
    argv = [*SERVE[:-1], *command, "--addons-path", str(addons), *odoo_flags(slow_odoo_bin)]
    proc = subprocess.Popen(
        argv, env=env_for(tmp_path, pg), cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_until(lambda: bool(processes_mentioning(pg.prefix)))
        os.kill(proc.pid, sig)
        assert proc.wait(timeout=60) == 130  # "interrupted", after the cleanup
        assert_cleaned_up(pg)
    finally:
        stop(proc)
