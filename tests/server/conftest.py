"""Helpers to run ``assista-odoo serve`` as a real subprocess (stdio or HTTP) and talk to it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.odoo.runner_support import pg, stub_odoo_bin

__all__ = ["pg", "stub_odoo_bin"]

SERVE = [sys.executable, "-m", "assista_mcp", "serve"]


def clean_env(tmp_path: Path) -> dict[str, str]:
    """The parent's environment minus ASSISTA_* settings, with home and cache in tmp."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env["ASSISTA_HOME"] = str(tmp_path / "home")
    env["ASSISTA_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def stdio_params(addons: Path, tmp_path: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=SERVE[0],
        args=[*SERVE[1:], "--addons-path", str(addons), *extra],
        env=clean_env(tmp_path),
        cwd=str(tmp_path),
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(
    port: int, proc: subprocess.Popen[bytes], deadline_s: float = 90.0, address: str = "127.0.0.1"
) -> None:
    """Until the server accepts connections; fail fast with its stderr if it died."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else b""
            raise AssertionError(f"server exited {proc.returncode}: {said!r}")
        try:
            with socket.create_connection((address, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"server did not listen on {port} within {deadline_s}s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


@dataclass(frozen=True)
class HttpServer:
    url: str
    token: str
    proc: subprocess.Popen[bytes]

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/")[0])

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def start_http_server(
    addons: Path,
    tmp_path: Path,
    *extra: str,
    host: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    **popen: Any,
) -> HttpServer:
    """``serve --transport http`` as a subprocess; the token is the one it generated in its home."""
    port = free_port()
    flags = ["--transport", "http", "--host", host, "--port", str(port), *extra]
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons), *flags],
        env={**clean_env(tmp_path), **(env or {})},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        **popen,
    )
    try:
        wait_for_port(port, proc, address="127.0.0.2" if host == "127.0.0.2" else "127.0.0.1")
    except BaseException:
        stop(proc)
        raise
    token_file = tmp_path / "home" / "http-auth-token"
    token = token_file.read_text().strip() if token_file.exists() else ""
    url_host = "127.0.0.2" if host == "127.0.0.2" else "127.0.0.1"
    return HttpServer(f"http://{url_host}:{port}/mcp", token, proc)


@contextlib.asynccontextmanager
async def connect(server: HttpServer, headers: dict[str, str] | None = None) -> AsyncIterator[Client]:
    """The SDK's streamable HTTP client, sending the server's bearer token (or ``headers``)."""
    async with (
        httpx2.AsyncClient(
            headers=server.auth() if headers is None else headers, timeout=httpx2.Timeout(30, read=300)
        ) as http,
        Client(streamable_http_client(server.url, http_client=http)) as client,
    ):
        yield client


@pytest.fixture
def http_server(addons: Path, tmp_path: Path) -> Iterator[HttpServer]:
    """``assista-odoo serve --transport http`` on a free loopback port."""
    server = start_http_server(addons, tmp_path)
    try:
        yield server
    finally:
        stop(server.proc)
