"""SIGTERM and SIGHUP end a command the way Ctrl-C does.

A stdio MCP host stops its server with SIGTERM and a closed terminal sends SIGHUP; by default
either kills Python on the spot, leaving odoo-bin's process group running and our run database
behind. Re-raised as SIGINT, they reach whatever handles Ctrl-C at that moment (asyncio's runner
cancels the main task, uvicorn shuts down gracefully, else KeyboardInterrupt), so the same
cleanup runs: the process group is killed and the database dropped.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def terminate_like_interrupt() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP act as SIGINT (main thread only, as Python requires)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _as_interrupt) for sig in TERMINATING}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    signal.raise_signal(signal.SIGINT)
