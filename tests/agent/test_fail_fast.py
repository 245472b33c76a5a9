"""Errors that need no model call are said before the agent's heavy imports (LiteLLM alone takes
seconds), and an endpoint nobody listens on is a connection error at once, not retried as a 500."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lint.conftest import FIXTURE_ADDONS

HEAVY = ("litellm", "assista_mcp.agent.terminal.runner")


def _run(tmp_path: Path, *words: str, **env: str) -> tuple[int, str, set[str]]:
    """``assista-odoo run ...`` under ``-X importtime``: exit code, what it said, modules imported."""
    base = {
        k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_") and not k.endswith("_API_KEY")
    }
    base.update({"ASSISTA_HOME": str(tmp_path / "home"), "ASSISTA_CACHE_DIR": str(tmp_path / "cache"), **env})
    argv = [sys.executable, "-X", "importtime", "-m", "assista_mcp", "run", *words]
    argv += ["--addons-path", str(FIXTURE_ADDONS)]
    result = subprocess.run(argv, env=base, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    imported = {
        line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")
    }
    said = "\n".join(line for line in result.stderr.splitlines() if not line.startswith("import time:"))
    return result.returncode, said + result.stdout, imported


@pytest.mark.parametrize(
    ("words", "env", "said"),
    [
        (["fix it", "--model", "openai/gpt-4o"], {}, "OPENAI_API_KEY is not set"),
        (["fix it", "--model", "anthropic/claude-sonnet-4-5"], {}, "ANTHROPIC_API_KEY is not set"),
        (["fix it"], {}, "No model was given"),
        (
            [
                "fix it",
                "--model",
                "openai/x",
                "--api-base",
                "http://127.0.0.1:9",
                "--mcp-url",
                "http://127.0.0.1:9/mcp",
            ],
            {"ASSISTA_AUTH_TOKEN": "short"},
            "too short",
        ),
    ],
)
def test_instant_errors_come_before_the_heavy_imports(
    tmp_path: Path, words: list[str], env: dict[str, str], said: str
) -> None:
    code, out, imported = _run(tmp_path, *words, **env)
    assert code == 2 and said in out, out
    assert "Traceback" not in out
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_an_unreachable_api_base_is_a_connection_error_without_retries(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, _ = _run(tmp_path, "fix it", "--model", "openai/x", "--api-base", f"http://127.0.0.1:{port}")
    assert code == 1, out
    assert "Cannot reach the model server (connection refused or unknown host). Check --api-base" in out
    assert "Provider error (500)" not in out and "Retrying" not in out and ".." not in out
