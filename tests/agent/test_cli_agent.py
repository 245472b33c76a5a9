"""``assista-odoo run / chat / sessions`` end to end: the CLI, LiteLLM over HTTP, our MCP server."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.cli import main
from fixtures.model_server import TEST_MODEL, ScriptedModelServer
from tests.agent.conftest import EVERY_PROVIDER
from tests.agent.loop_support import call, tool_messages

StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]
BOOK = "library_base/models/library_book.py"
ANCHOR = "    pages = fields.Integer()\n"
NEW_FIELD = "    edition = fields.Integer(default=1)\n"


@pytest.fixture
def cli_env(isolated_env: Path, model_server: StartServer) -> Path:
    return isolated_env


def _run(capsys: pytest.CaptureFixture[str], server: ScriptedModelServer, addons: Path, *extra: str) -> Any:
    argv = ["run", *extra[:1], "--addons-path", str(addons), "--model", server.litellm_model]
    argv += ["--api-base", server.api_base, "--events", "jsonl", *extra[1:]]
    code = main(argv)
    captured = capsys.readouterr()
    events = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    return code, events, captured.err


def _add_field_script() -> list[dict[str, Any]]:
    edit = {"path": BOOK, "edits": [{"old_text": ANCHOR, "new_text": ANCHOR + NEW_FIELD}]}
    return [
        {"text": "Reading the model first.", "tool_calls": [call("r1", "read_file", {"paths": [BOOK]})]},
        {"tool_calls": [call("e1", "edit_file", edit)], "split": 7},
        {"tool_calls": [call("k1", "check_module", {"module": "library_base"})]},
        {"text": "Added `edition` to library.book; check_module passes."},
    ]


@EVERY_PROVIDER
def test_add_a_field_end_to_end(
    cli_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = model_server(_add_field_script())
    code, events, _err = _run(
        capsys, server, addons, "add an edition field to library.book", "--mode", "auto-edit"
    )
    assert code == 0
    content = (addons / BOOK).read_text(encoding="utf-8")
    assert ANCHOR + NEW_FIELD in content and content.count("edition") == 1
    results = {e["tool_name"]: e for e in events if e["type"] == "tool_result"}
    assert "pages = fields.Integer()" in tool_messages(server.requests[1])["r1"]
    assert "+" + NEW_FIELD.rstrip("\n") in results["edit_file"]["data"]["diff"]
    check = results["check_module"]["data"]
    assert check["passed"] is True, [f["message"] for f in check["findings"] if f["severity"] == "error"]
    assert events[-1]["type"] == "end" and events[-1]["data"]["status"] == "final"
    assert sum(e["type"] == "usage" for e in events) == 4
    # The model was offered our real tools, read-only and write alike.
    offered = {t["function"]["name"] for t in server.requests[0]["tools"]}
    assert {"read_file", "edit_file", "check_module", "delete_file"} <= offered


@EVERY_PROVIDER
def test_ask_mode_without_a_terminal_writes_nothing(
    cli_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (addons / BOOK).read_text(encoding="utf-8")
    script = _add_field_script()
    server = model_server([script[1], {"text": "I could not edit; here is the change I would make."}])
    code, events, _err = _run(capsys, server, addons, "add an edition field")
    assert code == 0
    assert (addons / BOOK).read_text(encoding="utf-8") == before
    denial = tool_messages(server.requests[1])["e1"]
    assert denial.startswith("Denied") and "--mode auto-edit" in denial
    assert any(e["type"] == "tool_result" and e["is_error"] for e in events)


def test_continue_resumes_the_latest_session_and_sessions_commands(
    cli_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = model_server([{"text": "First answer."}])
    assert _run(capsys, first, addons, "first task")[0] == 0
    second = model_server([{"text": "Second answer."}])
    assert _run(capsys, second, addons, "second task", "--continue")[0] == 0
    sent = [(m["role"], m["content"]) for m in second.requests[0]["messages"][1:]]
    assert sent == [("user", "first task"), ("assistant", "First answer."), ("user", "second task")]

    assert main(["sessions", "list"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 1 and "first task" in listing[0]
    session_id = listing[0].split()[0]
    assert main(["sessions", "show", session_id[:6]]) == 0
    assert "Second answer." in capsys.readouterr().out
    target = cli_env.parent / "export.json"
    assert main(["sessions", "export", session_id, "--output", str(target)]) == 0
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert exported["session"]["usage"]["prompt_tokens"] > 0 and len(exported["messages"]) == 4
    assert main(["sessions", "delete", session_id]) == 0
    capsys.readouterr()
    assert main(["sessions", "show", session_id]) == 2
    assert "No session" in capsys.readouterr().err


def test_step_cap_exits_1_and_keeps_the_session(
    cli_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    again = {"tool_calls": [call("", "list_directory", {"path": "."})]}
    server = model_server([again, again, again])
    code, events, _err = _run(capsys, server, addons, "explore", "--max-steps", "2")
    assert code == 1 and len(server.requests) == 2
    assert events[-1]["data"]["status"] == "max_steps" and "--max-steps" in events[-1]["text"]


def test_missing_model_or_addons_path_is_a_usage_error(
    cli_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "task", "--addons-path", str(addons)]) == 2
    assert "--model" in capsys.readouterr().err
    assert main(["run", "task", "--model", TEST_MODEL]) == 2
    assert "--addons-path" in capsys.readouterr().err


def test_chat_reads_turns_and_slash_commands(
    cli_env: Path,
    model_server: StartServer,
    addons: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = model_server([{"text": "Hello there."}, {"text": "Fresh start."}])
    commands = ["/mode auto-edit", "hi", "/tokens", "/clear", "/mode sometimes", "/model openai/other"]
    lines = "\n".join([*commands, "again", "/sessions", "/nope", "/exit"]) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    argv = ["chat", "--addons-path", str(addons), "--model", TEST_MODEL, "--api-base", server.api_base]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "mode: auto-edit" in out and "Hello there." in out and "Fresh start." in out
    assert "Unknown command /nope" in out and "1 steps, 10 tokens in, 5 out" in out
    assert "Unknown mode 'sometimes'" in out and "model: openai/other" in out
    assert server.requests[1]["model"] == "other"  # /model switched the model of the next turn
    # /clear started a new session: the second request has no memory of the first turn.
    assert [m["content"] for m in server.requests[1]["messages"][1:]] == ["again"]


def test_missing_api_key_fails_at_once_naming_the_variable(
    cli_env: Path, addons: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not a transient error: no retries (LiteLLM answered "Missing credentials" as a 500 before).
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["run", "task", "--addons-path", str(addons), "--model", "openai/gpt-4o-mini"])
    captured = capsys.readouterr()
    assert code == 2
    assert "OPENAI_API_KEY is not set" in captured.err
    assert "Retrying" not in captured.err + captured.out


def test_api_base_without_a_key_sends_a_placeholder(
    cli_env: Path,
    model_server: StartServer,
    addons: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Ollama, vLLM, LM Studio need no key; LiteLLM's OpenAI route refuses to send none.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = model_server([{"text": "Hello."}])
    code, events, _err = _run(capsys, server, addons, "say hello")
    assert code == 0
    assert events[-1]["type"] == "end"
    assert server.request_headers[0]["authorization"] == "Bearer assista-odoo-no-key"


def test_unknown_provider_is_our_message_not_litellms_banner(
    cli_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "task", "--addons-path", str(addons), "--model", "nosuchprovider-model"]
    argv += ["--events", "jsonl"]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2
    assert "does not know which provider serves model 'nosuchprovider-model'" in captured.err
    assert "openai/" in captured.err and "anthropic/" in captured.err
    assert captured.out == ""  # stdout carries only jsonl events: LiteLLM's banner stays off it
