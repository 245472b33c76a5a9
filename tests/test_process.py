"""The one subprocess runner: output, long lines, timeouts and cancellation kill the whole group."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from odoo_tools.errors import ToolMissing
from odoo_tools.process import run_process, run_process_sync

PY = sys.executable
pytestmark = pytest.mark.anyio


async def test_collects_output_and_streams_complete_lines() -> None:
    seen: list[str] = []
    result = await run_process(
        [PY, "-c", "import sys; print('a'); print('b'); sys.stderr.write('e\\n'); print('tail', end='')"],
        on_stdout_line=seen.append,
    )
    assert result.returncode == 0
    assert result.stdout == "a\nb\ntail"
    assert result.stderr == "e\n"
    assert seen == ["a", "b", "tail"]


async def test_a_line_longer_than_the_stream_buffer_is_kept_whole() -> None:
    seen: list[str] = []
    code = "print('x' * 300_000); print('é' * 70_000); print('end')"
    result = await run_process([PY, "-c", code], on_stdout_line=seen.append)
    assert result.returncode == 0
    assert seen == ["x" * 300_000, "é" * 70_000, "end"]  # multibyte text split across chunks intact


async def test_environment_is_replaced_not_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSISTA_SECRET_FOR_TEST", "do-not-leak")
    code = "import os; print(os.environ.get('ASSISTA_SECRET_FOR_TEST', 'absent'), os.environ['ONLY'])"
    result = await run_process([PY, "-c", code], env={"ONLY": "this", "PATH": os.environ["PATH"]})
    assert result.stdout.split() == ["absent", "this"]


async def test_stdin_is_fed() -> None:
    result = await run_process([PY, "-c", "import sys; print(sys.stdin.read().upper())"], stdin_data=b"hi")
    assert result.stdout.strip() == "HI"


async def test_missing_program_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ToolMissing, match="not found"):
        await run_process([str(tmp_path / "no-such-odoo-bin")])


def _grandchild_script(pid_file: Path) -> str:
    # The child starts a grandchild that would outlive a plain kill of the child.
    return (
        "import subprocess, sys, time\n"
        f"p = subprocess.Popen([{PY!r}, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n"
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (dead, not yet reaped by its parent) is not alive either.
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().split()[2] != "Z"


def _wait_gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    result = run_process_sync([PY, "-c", _grandchild_script(pid_file)], timeout=2.0)
    assert result.timed_out and result.returncode == -9
    assert "started" in result.stdout
    assert _wait_gone(int(pid_file.read_text()))


def test_timeout_holds_when_the_child_closed_its_output() -> None:
    # The output pipes reach EOF at once; the child itself runs on past the timeout.
    result = run_process_sync(["sh", "-c", "exec >/dev/null 2>&1; sleep 60"], timeout=1.0)
    assert result.timed_out and result.returncode == -9


async def test_cancellation_kills_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    started = asyncio.Event()

    def on_line(line: str) -> None:
        if line == "started":
            started.set()

    task = asyncio.create_task(run_process([PY, "-c", _grandchild_script(pid_file)], on_stdout_line=on_line))
    await asyncio.wait_for(started.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _wait_gone(int(pid_file.read_text()))


# Ignores SIGTERM and leaves a grandchild in its own session holding the output pipes, so no end
# of output can arrive before the loop closes.
_HOLDS_PIPES = (
    "import signal, subprocess, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "subprocess.Popen(['sleep', '3'], start_new_session=True)\n"
    "print('started', flush=True)\n"
    "time.sleep(60)\n"
)


def test_a_cancelled_run_leaves_no_open_transport_behind() -> None:
    # K7: an MCP cancel (an anyio cancel scope) and then the loop closing (asyncio.run, a test's
    # loop) left the child's transport open; the garbage collector closed it later on the closed
    # loop: "Event loop is closed", reported by whichever test happened to collect it.
    import gc

    import anyio

    async def cancelled_run() -> None:
        async with anyio.create_task_group() as group:
            started = anyio.Event()
            argv = [PY, "-c", _HOLDS_PIPES]
            group.start_soon(lambda: run_process(argv, on_stdout_line=lambda _line: started.set()))
            await started.wait()
            group.cancel_scope.cancel()

    unraisable: list[str] = []
    pytest_hook = sys.unraisablehook
    sys.unraisablehook = lambda u: unraisable.append(f"{u.exc_type.__name__}: {u.exc_value}")
    try:
        anyio.run(cancelled_run)
        gc.collect()
    finally:
        sys.unraisablehook = pytest_hook
    assert unraisable == []


def test_signal_group_reaches_the_whole_group_and_ignores_a_gone_one() -> None:
    import signal
    import subprocess

    from odoo_tools.signals import signal_group

    leader = subprocess.Popen(["sh", "-c", "sleep 60 & wait"], start_new_session=True)
    signal_group(leader.pid, signal.SIGKILL)
    assert leader.wait(timeout=10) == -9
    signal_group(leader.pid, signal.SIGKILL)  # the group is gone: nothing to do, no error
