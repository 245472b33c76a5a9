"""Secrets in tool results never reach the console, --events jsonl, sessions or exports."""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

import pytest

from assista_mcp.cli import main
from fixtures.model_server import TEST_MODEL
from tests.safety.conftest import RunAgent, StartServer, call, cli

LEAKY = "library_base/data/leaky.txt"


def _secrets(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    picker = random.Random(42)
    key = "".join(picker.choice(string.ascii_letters + string.digits) for _ in range(40))
    password = "".join(picker.choice(string.ascii_letters) for _ in range(12))
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.setenv("PGPASSWORD", password)
    return [key, password]


def _leaky_file(addons: Path, secrets: list[str]) -> list[str]:
    key, password = secrets
    encoded = base64.b64encode(f"Authorization: Bearer {key}".encode()).decode()
    github = "gh" + "p_" + "A1b2C3d4E5" * 4
    text = f"key={key}\npg: {password}\nblob: {encoded}\ngh: {github}\n"
    (addons / LEAKY).write_text(text, encoding="utf-8")
    return [key, password, base64.b64encode(key.encode()).decode()[4:20], github]


def test_events_jsonl_sessions_and_exports_never_show_secrets(
    run_agent: RunAgent,
    model_server: StartServer,
    addons: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    leaks = _leaky_file(addons, _secrets(monkeypatch))
    server = model_server([{"tool_calls": [call("r1", "read_file", {"paths": LEAKY})]}, {"text": "read it"}])
    code, events, err = run_agent(server, addons, "read the file", "--mode", "yolo", "--no-validate")
    assert code == 0
    printed = json.dumps(events) + err
    assert "[redacted" in printed
    assert not [leak for leak in leaks if leak in printed]
    session = next(e["data"]["session_id"] for e in events if e["type"] == "end")
    for fmt in ("json", "markdown"):
        _, out, _ = cli(capsys, "sessions", "export", session, "--format", fmt)
        assert out and not [leak for leak in leaks if leak in out], fmt
    # The model itself still got the file as it is: redaction is for what is shown and stored.
    assert leaks[0] in json.dumps(server.requests[1]["messages"])


def test_the_default_console_never_shows_secrets(
    isolated_env: Path,
    model_server: StartServer,
    addons: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    leaks = _leaky_file(addons, _secrets(monkeypatch))
    server = model_server(
        [
            {"tool_calls": [call("r1", "read_file", {"paths": LEAKY})]},
            # Streamed 3 characters at a time: no delta may show a piece of a secret either.
            {"text": f"The key is {leaks[0]} and the token\nBearer {leaks[3]} ok", "split": 3},
        ]
    )
    argv = ["run", "read it", "--addons-path", str(addons), "--model", TEST_MODEL]
    assert main([*argv, "--api-base", server.api_base, "--mode", "yolo", "--no-validate"]) == 0
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "read_file" in shown and "The key is [redacted]" in shown
    assert not [leak for leak in leaks if leak in shown]
    assert leaks[0][:12] not in shown and leaks[3][:12] not in shown
