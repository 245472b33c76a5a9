"""A stdio server for tests: our real server plus tools that misbehave on purpose.

``print_noise`` writes to sys.stdout, to fd 1 directly and from a child process that inherits
fd 1; none of it may reach the protocol stream. ``wait_for_release`` blocks a worker thread
until ``release_waiter`` is called, to show the server keeps answering meanwhile.
Run: python noisy_server.py ADDONS_DIR
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Annotated

from pydantic import BaseModel, Field

from assista_mcp.config.loading import load_settings
from assista_mcp.server.mcp_server import build_server
from assista_mcp.server.stdio_transport import serve_stdio
from assista_mcp.server.tools._base import register_tool

RELEASE = threading.Event()
STARTED = threading.Event()


class Done(BaseModel):
    done: bool


def print_noise() -> Done:
    """Writes junk to stdout three ways."""
    print("NOISE from print")
    sys.stdout.flush()
    os.write(1, b"NOISE from fd 1\n")
    subprocess.run([sys.executable, "-c", "print('NOISE from a child')"], check=True)
    return Done(done=True)


def wait_for_release() -> Done:
    """Blocks until release_waiter is called."""
    STARTED.set()
    return Done(done=RELEASE.wait(timeout=120))


def waiter_started() -> Done:
    """Whether wait_for_release is running."""
    return Done(done=STARTED.wait(timeout=60))


def release_waiter(note: Annotated[str, Field(description="Ignored")] = "") -> Done:
    """Lets wait_for_release return."""
    RELEASE.set()
    return Done(done=True)


def main() -> None:
    server = build_server(load_settings({"addons_paths": [sys.argv[1]]}))
    for fn in (print_noise, wait_for_release, waiter_started, release_waiter):
        register_tool(server, fn, read_only=True)
    serve_stdio(server)  # the transport `assista-odoo serve` uses


if __name__ == "__main__":
    main()
