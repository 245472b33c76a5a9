"""Showing a run: live markdown in a terminal, plain text otherwise, or JSON lines for scripts.

Every renderer is a callable taking one StreamEvent, the same events the session store keeps.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.text import Text

from assista_mcp.agent.events import StreamEvent, Usage
from odoo_tools.safe_text import escape_controls

SUMMARY_WIDTH = 100
VALUE_WIDTH = 48


class JsonlRenderer:
    """``--events jsonl``: one JSON object per event on stdout, nothing else."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def __call__(self, event: StreamEvent) -> None:
        self.stream.write(event.model_dump_json() + "\n")
        self.stream.flush()

    def close(self) -> None:
        self.stream.flush()


class ConsoleRenderer:
    """Human output. On a terminal the answer is live markdown; elsewhere deltas are written as is."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()
        self.live_markdown = self.console.is_terminal
        # Off a terminal (a log, CI, a pipe) lines are never broken at 80 columns mid-message.
        self.console.soft_wrap = not self.console.is_terminal
        self._last_error = ""
        self.run_usage = Usage()
        self._text = ""
        self._live: Live | None = None
        self._in_reasoning = False

    def __call__(self, event: StreamEvent) -> None:
        handler = getattr(self, f"_on_{event.type}")
        handler(event)

    def close(self) -> None:
        self._flush_text()

    # -- events ---------------------------------------------------------------------------------
    def _on_text(self, event: StreamEvent) -> None:
        self._end_reasoning()
        self._text += event.text
        if not self.live_markdown:
            self.console.file.write(event.text)
            self.console.file.flush()
            return
        if self._live is None:
            self._live = Live(console=self.console, refresh_per_second=8, vertical_overflow="visible")
            self._live.start()
        self._live.update(Markdown(self._text))

    def _on_reasoning(self, event: StreamEvent) -> None:
        self._flush_text()
        self._in_reasoning = True
        self.console.print(Text(event.text, style="dim italic", end=""), end="", soft_wrap=True)

    def _on_tool_call(self, event: StreamEvent) -> None:
        self._flush_text()
        line = Text("→ ", style="cyan", no_wrap=True, overflow="ellipsis")
        line.append(escape_controls(event.tool_name), style="bold cyan")
        summary = summarize_arguments(event.arguments)
        if summary:
            line.append(f" {summary}", style="cyan")
        self.console.print(line)

    def _on_tool_result(self, event: StreamEvent) -> None:
        self._flush_text()
        diff = (event.data or {}).get("diff")
        if isinstance(diff, str) and diff.strip() and not event.is_error:
            shown = escape_controls(diff.rstrip("\n"), keep_newlines=True)
            self.console.print(Syntax(shown, "diff", theme="ansi_dark", word_wrap=True))
        mark, style = ("✗", "red") if event.is_error else ("✓", "green")
        line = Text(f"  {mark} {escape_controls(event.tool_name)}: {result_summary(event)}", style=style)
        self.console.print(line, no_wrap=True, overflow="ellipsis")

    def _on_usage(self, event: StreamEvent) -> None:
        if event.usage is not None:
            self.run_usage = self.run_usage + event.usage

    def _on_error(self, event: StreamEvent) -> None:
        self._flush_text()
        self._last_error = event.text
        self.console.print(Text(f"! {event.text}", style="yellow"))

    def _on_end(self, event: StreamEvent) -> None:
        self._flush_text()
        if event.text and (event.data or {}).get("status") != "final":
            # The loop ends a failed turn with the error it has just reported: say it once.
            said = self._last_error
            text = event.text.replace(said, "see the error above") if said else event.text
            self.console.print(Text(text, style="bold"))
        line = f"this run: {format_usage(self.run_usage)}"
        if event.usage is not None:
            session = (event.data or {}).get("session_id", "")
            line += f" | session {session}: {format_usage(event.usage)}"
        self.console.print(Text(line, style="dim"))

    def _flush_text(self) -> None:
        self._end_reasoning()
        if self._live is not None:
            self._live.stop()
            self._live = None
        elif self._text and not self._text.endswith("\n"):
            self.console.file.write("\n")
        self._text = ""

    def _end_reasoning(self) -> None:
        if self._in_reasoning:
            self._in_reasoning = False
            self.console.print()


def format_usage(usage: Usage) -> str:
    cached = f" ({usage.cached_tokens:,} cached)" if usage.cached_tokens else ""
    return (
        f"{usage.prompt_tokens:,} tokens in{cached}, {usage.completion_tokens:,} out, ${usage.cost_usd:.4f}"
    )


def summarize_arguments(arguments: dict[str, Any]) -> str:
    """``path=models/book.py old_text='...'``: one line, long values cut."""
    parts = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = escape_controls(" ".join(text.split()))
        if len(text) > VALUE_WIDTH:
            text = text[: VALUE_WIDTH - 1] + "…"
        parts.append(f"{escape_controls(key)}={text}")
    return compact(" ".join(parts))


def result_summary(event: StreamEvent) -> str:
    """One line for a tool result: the error's text, or the result's short fields and list sizes."""
    data = event.data
    if event.is_error or not data:
        return compact(event.text)
    parts = []
    for key, value in data.items():
        if isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= VALUE_WIDTH):
            if key != "diff" and value not in ("", None):
                parts.append(f"{key}={value}")
        elif isinstance(value, list):
            parts.append(f"{len(value)} {key}")
        elif isinstance(value, dict) and key == "summary":
            parts.append(summarize_arguments(value))
    return compact(" ".join(parts)) if parts else compact(event.text)


def compact(text: str) -> str:
    """One line of at most SUMMARY_WIDTH characters, control characters shown as escapes."""
    line = escape_controls(" ".join(text.split()))
    return line if len(line) <= SUMMARY_WIDTH else line[: SUMMARY_WIDTH - 1] + "…"
