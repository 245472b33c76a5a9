"""One stdio frame may not stop the server or exhaust the machine: frames nested too deep or
holding too many values are refused from their bytes, answered when their id can be read, and
the real ``serve`` subprocess keeps answering."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from assista_mcp.server.stdio_transport import MAX_DEPTH, MAX_VALUES, _frame_shape, _top_level_id

from .conftest import SERVE, clean_env
from .test_stdio import INITIALIZE, frame, read_frame


def _serve(addons: Path, tmp_path: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(tmp_path),
        cwd=tmp_path,
    )
    assert proc.stdin is not None
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    assert read_frame(proc)["id"] == 1
    proc.stdin.write(frame(None, "notifications/initialized"))
    return proc


def _peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=60)
    assert proc.returncode == 0


def test_a_frame_nested_3000_deep_is_answered_and_serving_goes_on(addons: Path, tmp_path: Path) -> None:
    """6 KB nested 3,000 deep raised RecursionError in the malformed-frame reply: the input
    pump died and the server never answered again."""
    proc = _serve(addons, tmp_path)
    assert proc.stdin is not None
    try:
        nested = b"[" * 3000 + b"]" * 3000
        proc.stdin.write(b'{"jsonrpc":"2.0","id":81,"method":"ping","params":{"x":' + nested + b"}}\n")
        proc.stdin.write(b'{"jsonrpc":"1.0","id":82,"x":' + nested + b"}\n")
        proc.stdin.write(nested + b"\n")  # no id to answer: dropped, and the next one served
        proc.stdin.write(frame(83, "ping"))
        proc.stdin.flush()
        replies = [read_frame(proc) for _ in range(3)]
    finally:
        _stop(proc)
    assert [r["id"] for r in replies] == [81, 82, 83]
    for refused in replies[:2]:
        assert refused["error"]["code"] == -32600  # type: ignore[index]
        assert f"nested deeper than {MAX_DEPTH} levels" in refused["error"]["message"]  # type: ignore[index]
    assert replies[2]["result"] == {}


def test_a_frame_of_millions_of_small_integers_is_refused_unbuilt(addons: Path, tmp_path: Path) -> None:
    """16 MB of ``1,`` (8 million values) grew the server by gigabytes before it answered."""
    proc = _serve(addons, tmp_path)
    assert proc.stdin is not None
    try:
        proc.stdin.write(frame(84, "ping"))
        proc.stdin.flush()
        assert read_frame(proc)["id"] == 84
        before = _peak_rss_mib(proc.pid)
        values = b"1," * 8_000_000 + b"1"
        proc.stdin.write(b'{"jsonrpc":"2.0","id":85,"method":"ping","params":{"x":[' + values + b"]}}\n")
        proc.stdin.write(frame(86, "ping"))
        proc.stdin.flush()
        replies = [read_frame(proc), read_frame(proc)]
        grown = _peak_rss_mib(proc.pid) - before
    finally:
        _stop(proc)
    assert [r["id"] for r in replies] == [85, 86]
    assert f"more than {MAX_VALUES} values" in replies[0]["error"]["message"]  # type: ignore[index]
    assert grown < 200, f"the server grew by {grown:.0f} MiB for a 16 MB frame"


def test_the_scan_reads_strings_as_text_and_takes_linear_time() -> None:
    deep_text = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"[" * 5000 + b'\\\\\\"{"}}'
    assert _frame_shape(deep_text) is None  # brackets inside a string are text
    assert _frame_shape(b'{"a":' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}") is not None
    many_strings = b"[" + b'"",' * (2 * MAX_VALUES) + b'""]'
    assert _frame_shape(many_strings) is not None
    started = time.monotonic()
    assert _frame_shape(b'{"x":"' + b"\\\\y" * 10_000_000 + b'"}') is None
    assert time.monotonic() - started < 10
    assert _top_level_id(b'{"params":{"id":3},"id":"r-1","method":"x"}') == "r-1"
    assert _top_level_id(b'{"jsonrpc":"2.0","result":{},"id":4}') is None  # a response
