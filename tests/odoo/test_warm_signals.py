"""SIGTERM or Ctrl-C of the server during a warm run: no process (worker, child) and no run database
is left, as for a cold run (tests/server/test_signals.py)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import STUB_ODOO_BIN, processes_mentioning
from tests.server.conftest import SERVE, clean_env, stop
from tests.server.test_signals import wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def slow_stub(tmp_path: Path) -> Path:
    """A copy of the stand-in (with its ``odoo`` package, for the worker) paced at 0.2 s a line:
    the server gives odoo-bin none of its variables, so the pace is the copy's default."""
    target = tmp_path / "odoo_slow"
    shutil.copytree(STUB_ODOO_BIN.parent, target, ignore=shutil.ignore_patterns("__pycache__"))
    log = target / "stub_log.py"
    log.write_text(log.read_text().replace('"ASSISTA_STUB_DELAY", "0.05"', '"ASSISTA_STUB_DELAY", "0.2"'))
    return target / "odoo-bin"


def _install_over_stdio(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    call = {"name": "install_module", "arguments": {"modules": "library_base"}}
    proc.stdin.write(
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode()
    )
    proc.stdin.write(b"\n")
    proc.stdin.flush()
    assert b'"id":1' in proc.stdout.readline()
    for frame in (
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
    ):
        proc.stdin.write(json.dumps(frame).encode() + b"\n")
    proc.stdin.flush()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl_c"])
def test_stopping_the_server_mid_warm_run_leaves_nothing(
    addons: Path, tmp_path: Path, pg: Pg, slow_stub: Path, sig: signal.Signals
) -> None:
    ours = str(tmp_path / "cache")  # in the command line of odoo-bin, of the worker and its children
    proc = subprocess.Popen(
        [*SERVE, "--addons-path", str(addons), "--odoo-bin", str(slow_stub), "--odoo-python", sys.executable],
        env={**clean_env(tmp_path), "ASSISTA_DB_PREFIX": pg.prefix},
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        _install_over_stdio(proc)
        wait_until(lambda: _warm_child_running(ours, slow_stub), 240)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        wait_until(lambda: not processes_mentioning(ours), 60)
        run_databases = [n for n in pg.list_ours() if not n.startswith(f"{pg.prefix}tpl")]
        assert run_databases == []
    finally:
        stop(proc)
        for name in pg.list_ours():  # the template and its spare are the cache's, not leftovers
            pg.drop(name)


def _warm_child_running(ours: str, odoo_bin: Path) -> bool:
    """The worker and its forked child (same command line), and no cold odoo-bin (its own)."""
    found = [_cmdline(pid) for pid in processes_mentioning(ours)]
    return len(found) >= 2 and not any(str(odoo_bin) in line for line in found)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
