"""The approval question on a terminal: every path the call touches and the whole change.

Nothing is cut: a long change is shown a page at a time. Everything that came from the model or a
tool is printed with its control characters escaped, so a call can never display as another one.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Literal

from rich.text import Text

from assista_mcp.agent.loop.approvals import ApprovalRequest, Decision, Prompter
from assista_mcp.safety.redaction import redact
from odoo_tools.safe_text import escape_controls

if TYPE_CHECKING:
    from rich.console import Console

    from assista_mcp.agent.loop.stdin_lines import StdinLines

PAGE_LINES = 40


def describe_request(request: ApprovalRequest) -> list[str]:
    """The lines shown before the question: what the call does to which paths, then the change."""
    paths = request.paths
    lines = [f"{escape_controls(request.tool_name)} wants to {_verb(request)}:"]
    overwritten = set(paths.overwritten)
    for path in paths.deleted:
        lines.append(f"  delete     {escape_controls(path)}")
    for path in paths.written:
        label = "overwrite " if path in overwritten else "write     "
        lines.append(f"  {label} {escape_controls(path)}")
    for path in paths.folders:
        lines.append(f"  new folder {escape_controls(path)}")
    for path in request.protected:
        lines.append(f"  ! protected: {escape_controls(path)} (steers git, linters or the agent itself)")
    change = request.change or _arguments(request)
    if change:
        lines.append("change:" if request.change else "arguments:")
        lines += escape_controls(change, keep_newlines=True).rstrip("\n").split("\n")
    return redact("\n".join(lines)).split("\n")  # whole: a key block spans lines


def _verb(request: ApprovalRequest) -> str:
    return {
        "read": "read",
        "edit": "edit files",
        "delete": "delete or replace files",
        "run_code": "run project code (odoo-bin)",
        "other": "run a tool whose effects are unknown",
    }[request.effect.value]


def _arguments(request: ApprovalRequest) -> str:
    return json.dumps(request.arguments, indent=2, ensure_ascii=False) if request.arguments else ""


def terminal_prompter(console: Console, lines: StdinLines, page_lines: int = PAGE_LINES) -> Prompter:
    """Ask on the terminal: approve once, always for this tool, or deny with a reason."""

    async def ask(request: ApprovalRequest) -> Decision:
        await _show_paged(console, lines, describe_request(request), page_lines)
        question = Text.assemble(
            (f"Approve {escape_controls(request.tool_name)}", "bold yellow"),
            f" ({request.effect.value})? y = once, a = always for this tool, n = deny [y/a/n] (n): ",
        )
        console.print(question, end="")
        answer = ""
        while answer not in ("y", "a", "n"):
            line = await lines.readline()
            answer = (line or "n").strip().lower()[:1] or "n"
            if answer not in ("y", "a", "n"):
                console.print("Please answer y, a or n: ", end="")
        if answer == "n":
            console.print("Reason for the model (optional): ", end="")
            reason = ((await lines.readline()) or "").strip()
            return Decision(tool_call_id=request.tool_call_id, verdict="deny", reason=reason)
        verdict: Literal["once", "always"] = "always" if answer == "a" else "once"
        return Decision(tool_call_id=request.tool_call_id, verdict=verdict)

    return ask


async def _show_paged(console: Console, lines: StdinLines, shown: list[str], page_lines: int) -> None:
    """Print ``shown`` a page at a time; Enter shows the next page, ``s`` skips to the question."""
    for start in range(0, len(shown), page_lines):
        for line in shown[start : start + page_lines]:
            console.print(Text(line, style=_style(line)), soft_wrap=True, markup=False, highlight=False)
        left = len(shown) - start - page_lines
        if left <= 0:
            return
        console.print(f"-- {left} more line(s): Enter shows more, s skips to the question -- ", end="")
        answer = await lines.readline()
        if answer is None or answer.strip().lower().startswith("s"):
            console.print(Text(f"[{left} line(s) not shown]", style="dim"))
            return


def _style(line: str) -> str:
    if line.startswith("+") and not line.startswith("+++"):
        return "green"
    if line.startswith("-") and not line.startswith("---"):
        return "red"
    if line.startswith("  ! protected"):
        return "bold red"
    return ""
