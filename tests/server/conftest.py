"""Helpers to run ``assista-odoo serve`` as a real subprocess (stdio or HTTP) and talk to it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client.stdio import StdioServerParameters

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


def wait_for_port(port: int, proc: subprocess.Popen[bytes], deadline_s: float = 90.0) -> None:
    """Until the server accepts connections; fail fast with its stderr if it died."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else b""
            raise AssertionError(f"server exited {proc.returncode}: {said!r}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
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


@pytest.fixture
def http_server(addons: Path, tmp_path: Path) -> Iterator[str]:
    """``assista-odoo serve --transport http`` on a free loopback port; yields its MCP URL."""
    port = free_port()
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons), "--transport", "http", "--port", str(port)],
        env=clean_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(proc)
