"""``/diff`` and ``/undo`` in chat: the same checkpoints as the CLI commands."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from assista_mcp.cli import main
from fixtures.model_server import TEST_MODEL
from tests.safety.conftest import ANCHOR, BOOK, StartServer, edit

NEW_FIELD = "    edition = fields.Integer(default=1)\n"


def test_chat_diff_and_undo(
    isolated_env: Path,
    model_server: StartServer,
    addons: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = (addons / BOOK).read_bytes()
    server = model_server(
        [{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Added."}]
    )
    lines = ["/undo", "add an edition field", "/diff", "/diff list", "/undo", "/undo", "/exit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    argv = ["chat", "--addons-path", str(addons), "--model", TEST_MODEL, "--api-base", server.api_base]
    assert main([*argv, "--mode", "auto-edit", "--no-validate"]) == 0
    out = capsys.readouterr().out
    assert (addons / BOOK).read_bytes() == before
    assert out.count("There is no agent turn to undo") == 2  # before the turn, and after undoing it
    assert f"+{NEW_FIELD.rstrip()}" in out and "add an edition field" in out
    assert "Undid turn" in out and "restored 1 file(s)" in out and BOOK in out
