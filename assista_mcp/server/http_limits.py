"""Connection limits for ``serve --transport http``: idle or slow clients cannot starve the server.

uvicorn times out idle keep-alive connections but not a request that never finishes arriving, and
it accepts connections until the process runs out of file descriptors (then the server dies). Here
every request must arrive whole within ``request_timeout`` seconds, and the number of open
connections is capped below the descriptor limit: at the cap, a new connection evicts the oldest
one that is still waiting for its request, so a flood of half-requests cannot lock out a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import resource
import time
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
QUIET_SECONDS = 60.0
FD_RESERVE_SHARE = 2  # half the descriptors stay for files, pipes and database connections


@dataclass(frozen=True)
class HttpLimits:
    max_connections: int
    request_timeout: float
    keep_alive_timeout: int = 5
    max_header_bytes: int = 64 * 1024


def raise_fd_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit; return the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


def limits_for(fd_limit: int, max_connections: int, request_timeout: float) -> HttpLimits:
    """The connection cap: what was asked, but never more than half the descriptors."""
    cap = max(8, min(max_connections, fd_limit // FD_RESERVE_SHARE))
    return HttpLimits(max_connections=cap, request_timeout=request_timeout)


def out_of_descriptors_is_not_fatal(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Loop exception handler: asyncio already pauses accepting for a second when accept() runs out
    of descriptors; the default handler's logging may itself need a file (rich imports its traceback
    module lazily), fail, and take the loop down. Say it in one short line on fd 2 instead, at most
    every ``QUIET_SECONDS``: a host that does not read our stderr must not block the loop on a full pipe."""
    exc = context.get("exception")
    if not (isinstance(exc, OSError) and exc.errno in OUT_OF_RESOURCES):
        loop.default_exception_handler(context)
        return
    _PAUSES.count += 1
    now = time.monotonic()
    if now - _PAUSES.last_said >= QUIET_SECONDS:
        _PAUSES.last_said = now
        line = f"assista-odoo: accepting paused {_PAUSES.count} time(s): {exc.strerror}\n"
        with contextlib.suppress(OSError):
            os.write(2, line.encode())


@dataclass
class _PauseCounter:
    count: int = 0
    last_said: float = float("-inf")


_PAUSES = _PauseCounter()


def guarded_protocol(limits: HttpLimits) -> type[H11Protocol]:
    """An h11 protocol class bound to ``limits`` (uvicorn instantiates it per connection)."""

    class Guarded(GuardedH11Protocol):
        LIMITS = limits
        waiting: ClassVar[dict[GuardedH11Protocol, None]] = {}

    return Guarded


class GuardedH11Protocol(H11Protocol):
    LIMITS: ClassVar[HttpLimits]
    # Connections still waiting for a whole request, oldest first: the ones to evict at the cap.
    waiting: ClassVar[dict[GuardedH11Protocol, None]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > self.LIMITS.max_connections and not self._evict_oldest_waiting():
            self.transport.abort()  # every slot holds a running request: refuse this one
            return
        self._await_request()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._request_arrived()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._request_arrived()
        super().connection_lost(exc)

    def _await_request(self) -> None:
        self._request_arrived()
        self.waiting[self] = None
        self._request_deadline = self.loop.call_later(self.LIMITS.request_timeout, self._too_slow)

    def _request_arrived(self) -> None:
        self.waiting.pop(self, None)
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _too_slow(self) -> None:
        self._request_deadline = None
        self.waiting.pop(self, None)
        if not self.transport.is_closing():
            self.transport.abort()

    def _evict_oldest_waiting(self) -> bool:
        for victim in self.waiting:
            if victim is not self:
                victim._too_slow()
                return True
        return False
