"""Rendering: plain text off a terminal, diffs for edits, usage line, JSON lines for scripts."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.loop.approvals import ApprovalRequest
from assista_mcp.agent.loop.stdin_lines import StdinLines
from assista_mcp.agent.terminal.approval_prompt import terminal_prompter
from assista_mcp.agent.terminal.render import (
    ConsoleRenderer,
    JsonlRenderer,
    result_summary,
    summarize_arguments,
)
from assista_mcp.safety.effects import Effect


def _events() -> list[StreamEvent]:
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-old\n+new\n"
    return [
        StreamEvent(type="reasoning", text="thinking"),
        StreamEvent(type="text", text="Editing "),
        StreamEvent(type="text", text="now."),
        StreamEvent(type="tool_call", tool_name="edit_file", arguments={"path": "x.py", "edits": [{"a": 1}]}),
        StreamEvent(type="tool_result", tool_name="edit_file", text='{"changed": true}', data={"diff": diff}),
        StreamEvent(type="tool_result", tool_name="read_file", text="No file x", is_error=True),
        StreamEvent(type="usage", usage=Usage(prompt_tokens=1200, completion_tokens=30, cached_tokens=100)),
        StreamEvent(type="error", text="rate limited; retrying in 1s"),
        StreamEvent(
            type="end",
            text="done",
            usage=Usage(prompt_tokens=5000),
            data={"status": "final", "session_id": "ab12"},
        ),
    ]


def test_plain_console_output() -> None:
    out = io.StringIO()
    renderer = ConsoleRenderer(Console(file=out, force_terminal=False, width=100))
    for event in _events():
        renderer(event)
    text = out.getvalue()
    assert "thinking" in text and "Editing now." in text
    assert "→ edit_file path=x.py" in text
    assert "+new" in text and "-old" in text
    assert "✓ edit_file" in text and "✗ read_file: No file x" in text
    assert "! rate limited" in text
    assert (
        "this run: 1,200 tokens in (100 cached), 30 out" in text and "session ab12: 5,000 tokens in" in text
    )


def test_jsonl_is_one_event_per_line() -> None:
    out = io.StringIO()
    renderer = JsonlRenderer(out)
    for event in _events():
        renderer(event)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [e["type"] for e in lines] == [e.type for e in _events()]


def test_argument_summary_is_one_short_line() -> None:
    summary = summarize_arguments({"path": "a.py", "content": "x\n" * 200})
    assert "\n" not in summary and len(summary) <= 100 and summary.startswith("path=a.py content=x x")


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("typed", "verdict", "reason"),
    [
        ("y\n", "once", ""),
        ("maybe\nA\n", "always", ""),
        ("n\nwrong file\n", "deny", "wrong file"),
        ("", "deny", ""),  # end of input: nobody can approve
    ],
)
async def test_terminal_prompt_answers(typed: str, verdict: str, reason: str) -> None:
    ask = terminal_prompter(Console(file=io.StringIO(), force_terminal=False), StdinLines(io.StringIO(typed)))
    decision = await ask(ApprovalRequest(tool_call_id="c9", tool_name="edit_file", effect=Effect.EDIT))
    assert (decision.tool_call_id, decision.verdict, decision.reason) == ("c9", verdict, reason)


def test_result_line_shows_short_fields_and_list_sizes() -> None:
    data = {"path": "x.py", "changed": True, "findings": [1, 2], "diff": "long", "content": "x" * 500}
    event = StreamEvent(type="tool_result", tool_name="edit_file", text="{...}", data=data)
    assert result_summary(event) == "path=x.py changed=True 2 findings"
    failed = StreamEvent(
        type="tool_result", tool_name="edit_file", text="No match\nfor old_text", is_error=True
    )
    assert result_summary(failed) == "No match for old_text"


@pytest.mark.anyio
async def test_a_cancelled_question_loses_no_line() -> None:
    import os

    import anyio

    read_fd, write_fd = os.pipe()
    lines = StdinLines(os.fdopen(read_fd, "r"))
    with anyio.move_on_after(0.2):
        await lines.readline()  # e.g. Ctrl-C while an approval question waits
    os.write(write_fd, b"hello\n")
    os.close(write_fd)
    assert await lines.readline() == "hello\n"
    assert await lines.readline() is None


@pytest.mark.anyio
async def test_the_approval_prompt_shows_every_path_and_the_whole_change_escaped() -> None:
    from assista_mcp.safety.effects import PathEffects

    patch = "".join(f"+line {n}\n" for n in range(100)) + "+\x1b[2K\rApprove read_file? \u202e\n"
    request = ApprovalRequest(
        tool_call_id="c1",
        tool_name="apply_patch",
        effect=Effect.DELETE,
        paths=PathEffects(written=("m/a.py", "m/second.py"), deleted=("m/\x1b[31mold.py",)),
        protected=["m/.git/config"],
        change=patch,
    )
    out = io.StringIO()
    typed = "\n\ny\n"  # Enter twice: two more pages, then the answer
    ask = terminal_prompter(
        Console(file=out, force_terminal=False, width=200), StdinLines(io.StringIO(typed))
    )
    decision = await ask(request)
    shown = out.getvalue()
    assert decision.verdict == "once"
    assert "\x1b" not in shown and "\u202e" not in shown and "\r" not in shown
    assert "m/second.py" in shown and "delete     m/\\x1b[31mold.py" in shown
    assert "protected: m/.git/config" in shown
    assert "+line 0" in shown and "+line 99" in shown and "\\x1b[2K\\rApprove read_file? \\u202e" in shown
    assert "more line(s)" in shown


def test_a_tool_call_line_cannot_pass_for_another_call() -> None:
    out = io.StringIO()
    renderer = ConsoleRenderer(Console(file=out, force_terminal=False, width=200))
    renderer(
        StreamEvent(type="tool_call", tool_name="write_file", arguments={"path": "\x1b[1K\rread_file x"})
    )
    assert "\x1b" not in out.getvalue() and "path=\\x1b[1K read_file" in out.getvalue()


def test_a_failed_turn_prints_its_error_once_and_unwrapped() -> None:
    # Off a terminal (CI logs, pipes) a long message stays on one line, and the end of a failed
    # turn does not repeat the error the loop has just reported.
    out = io.StringIO()
    renderer = ConsoleRenderer(Console(file=out, width=80))
    reason = "m: The model request failed (400): " + "an explanation well past eighty columns " * 3
    renderer(StreamEvent(type="error", text=reason))
    renderer(StreamEvent(type="end", text=f"The model failed: {reason}", data={"status": "error"}))
    lines = out.getvalue().splitlines()
    assert lines[0] == f"! {reason}"
    assert lines[1] == "The model failed: see the error above"
    assert out.getvalue().count("explanation") == 3
