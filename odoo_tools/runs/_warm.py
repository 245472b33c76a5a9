"""The warm path: a worker that has imported Odoo and a template's modules forks each odoo-bin.

A cold odoo-bin spends most of a re-validation importing Odoo and its modules' Python code. The
worker (``_warm_worker.py``, run with Odoo's interpreter in the cold path's child environment)
does that once per key (interpreter, odoo-bin, static options, the template's modules,
environment) and forks a child per run that does exactly what ``odoo-bin args`` does, writing its
log to a pipe we read like a cold run's. The verdict still comes from the database and that log.

The worker is reached only through a socketpair it inherits (nobody else can connect). It answers
"stale" when a file it imported changed, and is replaced; a dead, stale or crashed worker means a
cold run (``WarmUnavailable`` / ``WarmCrashed``), never a wrong answer. A cancelled or timed-out
run kills the child's process group, as ``odoo_tools.process`` does for a cold odoo-bin.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from odoo_tools.process import KILL_GRACE_SECONDS, pump_lines
from odoo_tools.runs._odoo_bin import OdooRun
from odoo_tools.signals import signal_group

WORKER_SCRIPT = Path(__file__).with_name("_warm_worker.py")
FAILED = 113  # the worker's child failed before Odoo ran (see _warm_worker.py)
READY_SECONDS = 120.0  # importing Odoo and the template's modules, on a loaded machine
REPLY_SECONDS = 30.0
MAX_MESSAGE = 1 << 20
# odoo-bin options that are the same for every run of a worker (the rest is per run)
STATIC_OPTIONS = ("--addons-path=", "--data-dir=", "--log-level=", "--max-cron-threads=", "--db_")


class WarmUnavailable(Exception):
    """The worker cannot take this run (starting failed, stale, dead): run odoo-bin cold.
    Nothing ran: the database is untouched."""


class WarmCrashed(Exception):
    """The worker's child died in a way a cold odoo-bin would not have: validate again, cold,
    in a fresh database."""


@dataclass(frozen=True)
class WarmKey:
    """Everything a worker has baked in: a run whose key differs needs another worker."""

    interpreter: str
    odoo_bin: str
    static_args: tuple[str, ...]
    preload: tuple[str, ...]  # the template's modules, dependencies first
    manifests: tuple[str, ...]  # modules whose manifests it may read once (Odoo's own, the template's)
    env: tuple[tuple[str, str], ...]


def static_args(args: Sequence[str]) -> tuple[str, ...]:
    return tuple(a for a in args if a.startswith(STATIC_OPTIONS))


class WarmWorker:
    """One worker process and its private socket."""

    def __init__(self, key: WarmKey, log_dir: Path) -> None:
        self.key = key
        self.active = 0
        self.retired = False
        self._ready: str | None = None  # "" ready, else why not
        self._waiting: asyncio.Task[None] | None = None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        log_dir.mkdir(parents=True, exist_ok=True)
        with theirs, (log_dir / "warm-worker.log").open("wb") as stderr:
            self.process = subprocess.Popen(  # its command line names its runner's log dir (for ps)
                [key.interpreter, str(WORKER_SCRIPT), str(theirs.fileno()), str(log_dir)],
                pass_fds=[theirs.fileno()],
                env=dict(key.env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,  # a Ctrl-C in our terminal is ours to handle, not its
            )
        hello = {
            "odoo_bin": key.odoo_bin,
            "config_args": list(key.static_args),
            "preload": list(key.preload),
            "manifests": list(key.manifests),
        }
        ours.sendall(json.dumps(hello).encode())
        ours.setblocking(False)

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None and self._ready in (None, "")

    async def ready(self) -> str:
        """Empty once the worker has imported everything, else why it will not serve. Concurrent
        callers share one wait: the worker answers once."""
        if self._ready is None:
            loop = asyncio.get_running_loop()
            if self._waiting is None or self._waiting.get_loop() is not loop:
                self._waiting = loop.create_task(self._wait_ready())
            await asyncio.shield(self._waiting)
        return self._ready or ""

    async def _wait_ready(self) -> None:
        try:
            answer = await asyncio.wait_for(self._receive(), READY_SECONDS)
            self._ready = "" if "ready" in answer else f"it failed to start: {answer.get('error')}"
        except (OSError, ValueError, asyncio.TimeoutError) as exc:
            self._ready = f"it did not start ({type(exc).__name__}: {exc})"

    async def _receive(self) -> dict[str, Any]:
        message = await asyncio.get_running_loop().sock_recv(self._control, MAX_MESSAGE)
        if not message:
            raise OSError("the worker closed its socket")
        answer: dict[str, Any] = json.loads(message)
        return answer

    async def run(
        self, argv: Sequence[str], args: Sequence[str], *, timeout: float | None,
        on_line: Callable[[str], None] | None = None,
    ) -> OdooRun:  # fmt: skip
        """Run ``odoo-bin args`` as a fork of the worker (``argv`` is the cold command line, for
        the record). Raises WarmUnavailable before anything ran, WarmCrashed after."""
        why = await self.ready()
        if why:
            raise WarmUnavailable(f"the warm worker is not available: {why}")
        self.active += 1
        try:
            return await self._run(argv, args, timeout, on_line)
        finally:
            self.active -= 1
            if self.retired and not self.active:
                self.close()

    async def _run(
        self, argv: Sequence[str], args: Sequence[str], timeout: float | None,
        on_line: Callable[[str], None] | None,
    ) -> OdooRun:  # fmt: skip
        started = time.monotonic()
        reply, pid, log, rest = self._start(args)
        lines: list[str] = []

        def collect(line: str) -> None:
            lines.append(line)
            if on_line is not None:
                on_line(line)

        pipe = os.fdopen(log, "rb", buffering=0)  # closed by its transport, or below
        finished = asyncio.ensure_future(_finish(reply, pipe, rest, collect))
        timed_out = killed = False
        try:
            code = await asyncio.wait_for(asyncio.shield(finished), timeout)
        except asyncio.TimeoutError:
            timed_out = killed = True
            code = await self._kill(pid, finished)
        except BaseException:
            signal_group(pid, signal.SIGTERM)
            signal_group(pid, signal.SIGKILL)  # under an anyio cancel scope nothing can be awaited
            finished.cancel()
            _wait_gone(pid, KILL_GRACE_SECONDS)
            reply.close()
            pipe.close()
            raise
        reply.close()
        pipe.close()
        if not killed and (code == FAILED or code < 0):
            raise WarmCrashed(f"the warm worker's child {pid} ended with {code}: {lines[-1:] or 'no output'}")
        return OdooRun(
            argv=tuple(argv),
            returncode=-9 if timed_out else code,
            log="\n".join(lines) + ("\n" if lines else ""),
            seconds=time.monotonic() - started,
            timed_out=timed_out,
        )

    def _start(self, args: Sequence[str]) -> tuple[socket.socket, int, int, bytes]:
        """Hand the worker a run; its child's pid. Blocking on purpose (the worker answers within
        milliseconds): a cancellation must not fall between its fork and our knowing the pid."""
        reply, theirs = socket.socketpair()
        log_read, log_write = os.pipe()
        rest = b""
        try:
            with theirs, open(log_write, "wb", closefd=True):  # ours closed once sent (fds are reused)
                message = json.dumps({"args": list(args)}).encode()
                socket.send_fds(self._control, [message], [theirs.fileno(), log_write])
            reply.settimeout(REPLY_SECONDS)
            first, rest = _read_line(reply)
            answer = json.loads(first) if first else {}
        except (OSError, ValueError) as exc:
            answer = {"stale": f"the worker did not answer ({type(exc).__name__}: {exc})"}
        if "pid" not in answer:
            os.close(log_read)
            reply.close()
            self.retired = True
            raise WarmUnavailable(f"the warm worker cannot run it: {answer.get('stale', 'it is gone')}")
        reply.setblocking(False)
        return reply, int(answer["pid"]), log_read, rest

    async def _kill(self, pid: int, finished: asyncio.Future[int]) -> int:
        """SIGTERM its group, SIGKILL after a grace period; its exit code (-9 if it never came)."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            signal_group(pid, sig)
            with contextlib.suppress(asyncio.TimeoutError):
                return await asyncio.wait_for(asyncio.shield(finished), KILL_GRACE_SECONDS)
        finished.cancel()
        _wait_gone(pid, KILL_GRACE_SECONDS)
        return -signal.SIGKILL

    def close(self) -> None:
        """End the worker (it kills what it still runs) and reap it."""
        self.retired = True
        self._control.close()
        try:
            self.process.wait(KILL_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            signal_group(self.process.pid, signal.SIGKILL)
            self.process.wait()


async def _finish(reply: socket.socket, pipe: BinaryIO, data: bytes, collect: Callable[[str], None]) -> int:
    """Read the child's log to its end, then its exit code (``data``: what came after its pid)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    try:
        await pump_lines(reader, [], collect)
    finally:
        transport.close()
    while b"\n" not in data:
        chunk = await loop.sock_recv(reply, MAX_MESSAGE)
        if not chunk:
            return -signal.SIGKILL  # the worker died: so did its child (PDEATHSIG)
        data += chunk
    return int(json.loads(data.split(b"\n", 1)[0])["exit"])


def _read_line(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return data, b""
        data += chunk
    line, rest = data.split(b"\n", 1)
    return line, rest


def _wait_gone(pid: int, seconds: float) -> None:
    """Until ``pid`` is no longer running (reaped by the worker, or a zombie it is reaping)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.01)


__all__ = ["WarmCrashed", "WarmKey", "WarmUnavailable", "WarmWorker", "static_args"]
