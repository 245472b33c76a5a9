"""The one way to run a child process: argv list (never a shell), timeout, whole-group kill.

Each child starts in its own session, so a timeout, a cancellation (MCP cancel, Ctrl-C) or an
error kills the child *and* everything it spawned. Output lines can be streamed to a callback
while the process runs (progress reporting), and are always collected for the result.
``odoo_tools.signals.terminate_like_interrupt`` makes SIGTERM/SIGHUP run that same cleanup as Ctrl-C.
``memory_limit`` caps a child's address space (RLIMIT_AS): a linter fed a hostile file fails
with MemoryError instead of taking the machine.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odoo_tools.errors import ProcessFailed, ToolMissing
from odoo_tools.signals import signal_group

try:
    import resource
except ImportError:  # pragma: no cover - Windows: no rlimits
    resource = None  # type: ignore[assignment]

LineCallback = Callable[[str], None]
KILL_GRACE_SECONDS = 3.0
CHUNK_BYTES = 64 * 1024


@dataclass(frozen=True)
class ProcessResult:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False

    def decisive_line(self) -> str:
        """The line that says why a failed child failed: the last non-empty line of its stderr (for
        a Python traceback, ``Error: message``), else of its stdout; never a cut-off character slice."""
        for text in (self.stderr, self.stdout):
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            if lines:
                return lines[-1]
        return "(no output)"


async def run_process(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = 600.0,
    on_stdout_line: LineCallback | None = None,
    on_stderr_line: LineCallback | None = None,
    stdin_data: bytes | None = None,
    memory_limit: int | None = None,
) -> ProcessResult:
    """Run ``argv`` to completion. ``env`` replaces the environment when given (no leaking);
    ``memory_limit``: the most bytes of address space the child (and what it starts) may map.

    On timeout the group is killed and the result has ``timed_out=True`` (returncode -9).
    On cancellation the group is killed and the cancellation propagates.
    """
    if not argv:
        raise ProcessFailed("Empty command line.", "Pass the program and its arguments as a list.")
    started = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=str(cwd) if cwd is not None else None,
            env=dict(env) if env is not None else None,
            stdin=asyncio.subprocess.PIPE if stdin_data is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_limited(memory_limit),
        )
    except FileNotFoundError as exc:
        raise ToolMissing(f"Cannot run {argv[0]!r}: not found.", "Install it or give its full path.") from exc
    except PermissionError as exc:
        raise ProcessFailed(f"Cannot run {argv[0]!r}: permission denied.", "Make it executable.") from exc

    out: list[str] = []
    err: list[str] = []
    assert proc.stdout is not None and proc.stderr is not None
    readers = asyncio.gather(
        pump_lines(proc.stdout, out, on_stdout_line),
        pump_lines(proc.stderr, err, on_stderr_line),
        _feed(proc, stdin_data),
    )
    timed_out = False

    async def finished() -> None:
        # The exit is under the timeout too: a child that closed its output may still be running.
        await asyncio.shield(readers)  # on timeout the readers go on collecting until the kill
        await proc.wait()

    try:
        await asyncio.wait_for(finished(), timeout)
    except asyncio.TimeoutError:
        timed_out = True
        await _kill_group(proc)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(readers, KILL_GRACE_SECONDS)
        _release(proc)  # a grandchild outside the group may still hold the pipes
    except BaseException:
        try:
            await _kill_group(proc)
        finally:
            # Under an anyio cancel scope (an MCP cancel) the graceful wait is cancelled too:
            # make sure a child that ignores SIGTERM still dies.
            signal_group(proc.pid, signal.SIGKILL)
            readers.cancel()
            readers.add_done_callback(_retrieve)  # no "exception never retrieved" noise
            _release(proc)
        raise
    return ProcessResult(
        argv=tuple(argv),
        returncode=-9 if timed_out else (proc.returncode if proc.returncode is not None else -1),
        stdout="".join(out),
        stderr="".join(err),
        seconds=time.monotonic() - started,
        timed_out=timed_out,
    )


class EarlyProcess:
    """A child started before its input is known, so it loads its imports while the caller works
    out what to ask (a linter's warm start); ``finish`` hands it its input and waits like
    ``run_process``, ``discard`` ends it unused. Own session: a timeout, a cancellation or a
    discard kills the whole group. ``stdin`` closed without input tells the child to exit."""

    def __init__(
        self, argv: Sequence[str], *, cwd: Path | str, env: Mapping[str, str], memory_limit: int | None = None
    ) -> None:
        self.argv = tuple(argv)
        self._proc = subprocess.Popen(
            self.argv,
            cwd=str(cwd),
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=_limited(memory_limit),
        )
        self._started = time.monotonic()

    async def finish(self, stdin_data: bytes, timeout: float | None = 600.0) -> ProcessResult:
        timed_out = False
        try:
            out, err = await asyncio.to_thread(self._proc.communicate, stdin_data, timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            self.discard()
            out, err = self._proc.communicate()
        except BaseException:
            self.discard()  # the thread's communicate returns once the group is gone
            raise
        return ProcessResult(
            argv=self.argv,
            returncode=-9 if timed_out else self._proc.returncode,
            stdout=out.decode("utf-8", "replace"),
            stderr=err.decode("utf-8", "replace"),
            seconds=time.monotonic() - self._started,
            timed_out=timed_out,
        )

    def discard(self) -> None:
        if self._proc.poll() is None:
            signal_group(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(KILL_GRACE_SECONDS)  # reaped: no zombie left behind


def _limited(memory_limit: int | None) -> Callable[[], None] | None:
    """What the child runs before ``exec``: setting its RLIMIT_AS (inherited by its children).
    Only ``setrlimit``, which is async-signal-safe enough for a forked child of a threaded parent."""
    if memory_limit is None or resource is None:
        return None
    limit = memory_limit

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_process_sync(argv: Sequence[str], **kwargs: object) -> ProcessResult:
    """Blocking form for synchronous callers (threads, the CI gate). Same semantics."""
    return asyncio.run(run_process(argv, **kwargs))  # type: ignore[arg-type]


async def pump_lines(stream: asyncio.StreamReader, sink: list[str], callback: LineCallback | None) -> None:
    """Collect output and hand complete lines to ``callback`` (also used for a warm odoo-bin's log).

    Reads fixed-size chunks and splits lines itself: ``readline`` fails on lines longer than the
    stream's buffer limit (64 KiB), and a child may print a longer one (JSON, a huge traceback).
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    while True:
        chunk = await stream.read(CHUNK_BYTES)
        text = decoder.decode(chunk, final=not chunk)
        if text:
            sink.append(text)
            pending += text
            *lines, pending = pending.split("\n")
            if callback is not None:
                for line in lines:
                    callback(line)
        if not chunk:
            if pending and callback is not None:
                callback(pending)
            return


async def _feed(proc: asyncio.subprocess.Process, data: bytes | None) -> None:
    if data is None or proc.stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        proc.stdin.write(data)
        await proc.stdin.drain()
        proc.stdin.close()


def _release(proc: asyncio.subprocess.Process) -> None:
    """Close the child's transport now. After a cancel (or a timeout whose pipes stay open) the
    loop may stop before the child's exit and end of output are delivered; a transport left open
    is closed later by the garbage collector, on a closed loop: "Event loop is closed", reported
    in whichever test happened to collect it. asyncio offers no public close on Process."""
    transport = getattr(proc, "_transport", None)
    if transport is not None:
        transport.close()


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def _kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM the whole group, then SIGKILL whatever is left after a grace period."""
    if proc.returncode is not None:
        return
    signal_group(proc.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), KILL_GRACE_SECONDS)
    except asyncio.TimeoutError:
        signal_group(proc.pid, signal.SIGKILL)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(proc.wait(), KILL_GRACE_SECONDS)
    # Grandchildren may outlive the leader; make sure the group is gone.
    signal_group(proc.pid, signal.SIGKILL)
