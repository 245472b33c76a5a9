"""``run`` and ``chat`` on SIGTERM (a CI job's timeout) and SIGHUP (a closed terminal) clean up
like ``serve``, ``check`` and ``odoo``: the tool call in progress is cancelled, odoo-bin ends, the
run's database is dropped, and the command exits 130 ("interrupted")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.model_server import TEST_API_KEY, TEST_MODEL
from odoo_tools.runs._pg import Pg
from tests.agent.conftest import StartServer
from tests.agent.loop_support import call
from tests.odoo.runner_support import pg, processes_mentioning, stub_odoo_bin
from tests.server.test_signals import assert_cleaned_up, odoo_flags, slow_odoo_bin, wait_until

__all__ = ["pg", "slow_odoo_bin", "stub_odoo_bin"]  # fixtures
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.mark.parametrize(
    ("command", "sig"),
    [("run", signal.SIGTERM), ("run", signal.SIGHUP), ("chat", signal.SIGTERM), ("chat", signal.SIGHUP)],
)
def test_run_and_chat_clean_up_on_sigterm_and_sighup(
    command: str,
    sig: signal.Signals,
    model_server: StartServer,
    addons: Path,
    tmp_path: Path,
    pg: Pg,
    slow_odoo_bin: Path,
) -> None:
    server = model_server([{"tool_calls": [call("i1", "install_module", {"modules": "library_base"})]}])
    argv = [
        sys.executable,
        "-m",
        "assista_mcp",
        command,
        *(["install library_base"] if command == "run" else []),
    ]
    argv += ["--addons-path", str(addons), "--model", TEST_MODEL, "--api-base", server.api_base]
    argv += ["--mode", "yolo", "--no-validate", *odoo_flags(slow_odoo_bin)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update(
        ASSISTA_HOME=str(tmp_path / "home"),
        ASSISTA_CACHE_DIR=str(tmp_path / "cache"),
        ASSISTA_DB_PREFIX=pg.prefix,
        OPENAI_API_KEY=TEST_API_KEY,
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    proc = subprocess.Popen(
        argv, env=env, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        if command == "chat":
            assert proc.stdin is not None
            proc.stdin.write(b"install library_base\n")  # stdin stays open: chat waits for more
            proc.stdin.flush()
        wait_until(lambda: bool(processes_mentioning(pg.prefix)))
        os.kill(proc.pid, sig)
        assert proc.wait(timeout=60) == 130  # interrupted, after the cleanup (default: killed, -sig)
        assert_cleaned_up(pg)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
