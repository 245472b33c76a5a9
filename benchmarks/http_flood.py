"""Benchmark ``serve --transport http`` under a flood of idle half-requests.

    .venv/bin/python benchmarks/http_flood.py [--idle 300,1100] [--fd-limit 256]

Starts the real server with its descriptor limit lowered to ``--fd-limit`` (soft and hard, so it
cannot raise it), opens each number of ``--idle`` connections that send half a request and then
wait, and times one real MCP ``initialize`` (bearer token, 60 s client timeout) while they are
open. Prints the time, whether the server is still alive, and the ratio to the same request with
no flood, measured in the same run, and how long the server takes to exit on SIGTERM afterwards
(killed after 120 s). Everything stops when the script ends.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
INIT = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", default="300,1100")
    parser.add_argument("--fd-limit", type=int, default=256)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(REPO / "fixtures" / "addons", work / "addons")
        baseline = None
        for idle in [0, *(int(n) for n in args.idle.split(","))]:
            seconds, alive = run_once(work, idle, args.fd_limit)
            baseline = baseline or seconds
            answer = "answered" if seconds is not None else "NOT answered"
            ratio = f"{seconds / baseline:.1f}x" if seconds and baseline else "-"
            print(
                f"idle={idle:5d} fd-limit={args.fd_limit}: {answer} in {seconds or 0:.2f}s "
                f"({ratio} vs no flood), server alive: {alive}"
            )


def run_once(work: Path, idle: int, fd_limit: int) -> tuple[float | None, bool]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "ASSISTA_HOME": str(work / "home"), "ASSISTA_CACHE_DIR": str(work / "cache")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "assista_mcp",
            "serve",
            "--addons-path",
            str(work / "addons"),
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        env=env,
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit)),
    )
    sockets: list[socket.socket] = []
    try:
        wait_for(port)
        token = (work / "home" / "http-auth-token").read_text().strip()
        half = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Le".encode()
        for _ in range(idle):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(half)
            sockets.append(sock)
        headers = {
            "authorization": f"Bearer {token}",
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
        }
        started = time.perf_counter()
        try:
            httpx.post(f"http://127.0.0.1:{port}/mcp", headers=headers, content=INIT, timeout=60)
            seconds: float | None = time.perf_counter() - started
        except httpx.HTTPError:
            seconds = None
        return seconds, proc.poll() is None
    finally:
        for sock in sockets:
            sock.close()
        proc.terminate()
        stopping = time.perf_counter()
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        print(f"  (SIGTERM to exit: {time.perf_counter() - stopping:.1f}s)")


def wait_for(port: int) -> None:
    end = time.monotonic() + 120
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


if __name__ == "__main__":
    main()
