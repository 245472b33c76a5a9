"""Signals for the processes we start and for our own: a child's whole process group signalled
(each child leads its own session), and SIGTERM/SIGHUP turned into Ctrl-C while a run holds
something to clean up (``terminate_like_interrupt``)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def signal_group(pid: int, sig: signal.Signals) -> None:
    """Send ``sig`` to the process group led by ``pid`` (our children get their own session); a
    group that is already gone, or no longer ours to signal, is left alone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


@contextlib.contextmanager
def terminate_like_interrupt() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP act as Ctrl-C.

    By default either kills Python on the spot, leaving a child's process group running (it has its
    own session) and a run's database behind. As SIGINT they reach whatever handles Ctrl-C at that
    moment (asyncio's runner cancels the main task, uvicorn shuts down, else KeyboardInterrupt), so
    the same cleanup runs. Main thread only (as Python requires); a handler the caller installed
    itself is left alone, so nesting (the CLI around a runner) is harmless.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _as_interrupt) for sig in TERMINATING if _is_default(sig)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _is_default(sig: signal.Signals) -> bool:
    return signal.getsignal(sig) == signal.SIG_DFL


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        # SIGINT ignored (a job started with `&` or nohup): re-raising it would ignore SIGTERM too
        raise KeyboardInterrupt
    signal.raise_signal(signal.SIGINT)
