"""``run --mcp-url`` against a real ``serve --transport http``: the agent sends the bearer token the
server requires, found as the server finds it, and never shows it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.loop.url_auth import bearer_token, is_loopback
from assista_mcp.cli import main
from fixtures.model_server import ScriptedModelServer
from odoo_tools.errors import ConfigError
from tests.agent.loop_support import call, tool_messages
from tests.server.conftest import HttpServer, start_http_server, stop

StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]
TOKEN = "t0ken-for-the-test-0123456789"


def _private_file(path: Path, text: str, mode: int = 0o600) -> Path:
    path.write_text(text + "\n", encoding="utf-8")
    os.chmod(path, mode)
    return path


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8765/mcp", True),
        ("http://127.0.0.2:8765/mcp", True),
        ("http://localhost:8765/mcp", True),
        ("http://[::1]:8765/mcp", True),
        ("https://mcp.example.com/mcp", False),
        ("http://10.0.0.5:8765/mcp", False),
    ],
)
def test_loopback_urls(url: str, loopback: bool) -> None:
    assert is_loopback(url) is loopback


def test_the_token_is_found_as_the_server_finds_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    local, remote = "http://127.0.0.1:1/mcp", "https://mcp.example.com/mcp"
    assert bearer_token(local, home, None, None) is None  # no server made a token here: none sent
    _private_file(home / "http-auth-token", TOKEN)
    found = bearer_token(local, home, None, None)
    assert found is not None and found.value == TOKEN
    assert bearer_token(remote, home, None, None) is None  # the local token never leaves the machine
    env = bearer_token(remote, home, None, "from-the-environment-0123")
    assert env is not None and env.value == "from-the-environment-0123"
    chosen = _private_file(tmp_path / "chosen", "from-a-file-0123456789")
    given = bearer_token(remote, home, chosen, "from-the-environment-0123")
    assert given is not None and given.value == "from-a-file-0123456789"
    os.chmod(chosen, 0o644)
    with pytest.raises(ConfigError, match="other accounts"):
        bearer_token(local, home, chosen, None)


@pytest.fixture
def served(isolated_env: Path, addons: Path, tmp_path: Path) -> Iterator[HttpServer]:
    """A real HTTP server sharing the agent's data folder (so its generated token file)."""
    server = start_http_server(addons, tmp_path)
    try:
        yield server
    finally:
        stop(server.proc)


def _run(capsys: pytest.CaptureFixture[str], model: ScriptedModelServer, addons: Path, *extra: str) -> Any:
    argv = ["run", "list the addons", "--addons-path", str(addons), "--model", model.litellm_model]
    argv += ["--api-base", model.api_base, "--mode", "yolo", "--events", "jsonl", *extra]
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _stored_bytes(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file() and p.name != "http-auth-token")


@pytest.mark.slow
def test_mcp_url_sends_the_servers_token_and_never_shows_it(
    served: HttpServer,
    model_server: StartServer,
    addons: Path,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert served.token  # the server generated it in the shared data folder
    model = model_server(
        [{"tool_calls": [call("l1", "odoo__list_directory", {"path": "."})]}, {"text": "Listed."}]
    )
    code, out, err = _run(capsys, model, addons, "--mcp-url", f"odoo={served.url}")
    assert code == 0, err
    assert "library_base" in tool_messages(model.requests[1])["l1"]
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert events[-1]["data"]["status"] == "final"
    for said in (out, err, json.dumps(model.requests)):
        assert served.token not in said
    assert served.token.encode() not in _stored_bytes(isolated_env)


@pytest.mark.slow
def test_mcp_url_with_a_wrong_token_is_a_clear_error(
    served: HttpServer,
    model_server: StartServer,
    addons: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = model_server([{"text": "never asked"}])
    wrong = _private_file(tmp_path / "wrong-token", TOKEN)
    code, out, err = _run(capsys, model, addons, "--mcp-url", served.url, "--auth-token-file", str(wrong))
    assert code == 2 and model.requests == []
    assert "refused the connection (HTTP 401): the token sent is not the one it accepts" in err
    assert "--auth-token-file" in err
    assert TOKEN not in out + err and served.token not in out + err
    model = model_server([{"text": "never asked"}])
    monkeypatch.setenv("ASSISTA_HOME", str(tmp_path / "elsewhere"))  # no token file to find: none sent
    code, out, err = _run(capsys, model, addons, "--mcp-url", served.url)
    assert code == 2 and model.requests == []
    assert "(HTTP 401): no bearer token was sent" in err


@pytest.mark.slow
def test_a_refusing_mcp_url_is_said_before_litellm_loads_and_leaves_no_session(
    served: HttpServer, addons: Path, isolated_env: Path, tmp_path: Path
) -> None:
    wrong = _private_file(tmp_path / "wrong-token", TOKEN)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update({"ASSISTA_HOME": str(isolated_env), "ASSISTA_CACHE_DIR": str(tmp_path / "cache")})
    argv = [sys.executable, "-X", "importtime", "-m", "assista_mcp", "run", "list the addons"]
    argv += ["--addons-path", str(addons), "--model", "openai/x", "--api-base", "http://127.0.0.1:9"]
    argv += ["--mcp-url", served.url, "--auth-token-file", str(wrong)]
    result = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and "refused the connection (HTTP 401)" in result.stderr
    imported = {
        line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")
    }
    assert "litellm" not in imported
    store = SessionStore.in_home(isolated_env)
    assert store.list_sessions() == []  # nothing to continue: the run never began
    store.close()
