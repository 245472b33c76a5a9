"""Who may run which tool: the four modes, and approvals bound to the exact call that asked.

A tool's MCP annotations decide its kind: ``read_only_hint`` -> read (always allowed). Our own file
edit tools are edits; everything else that is not read-only (installs, upgrades, tests, deletes,
unannotated or foreign tools) is "other" and needs approval except in ``yolo``.

| mode      | read | edit     | other    |
|-----------|------|----------|----------|
| read-only | yes  | hidden   | hidden   |
| ask       | yes  | approval | approval |
| auto-edit | yes  | yes      | approval |
| yolo      | yes  | yes      | yes      |
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, Field

from odoo_tools.errors import InvalidInput

if TYPE_CHECKING:
    from rich.console import Console

    from assista_mcp.agent.loop.stdin_lines import StdinLines

Mode = Literal["read-only", "ask", "auto-edit", "yolo"]
MODES: tuple[str, ...] = get_args(Mode)
EDIT_TOOLS = frozenset({"write_file", "edit_file", "apply_patch", "create_folder", "move_file"})


class ToolKind(str, enum.Enum):
    READ = "read"
    EDIT = "edit"
    OTHER = "other"


def classify(tool_name: str, read_only_hint: bool | None, *, own_server: bool) -> ToolKind:
    """The kind of a tool. Names are trusted only for our own server's tools."""
    if read_only_hint:
        return ToolKind.READ
    if own_server and tool_name in EDIT_TOOLS:
        return ToolKind.EDIT
    return ToolKind.OTHER


def check_mode(value: str) -> Mode:
    if value not in MODES:
        raise InvalidInput(f"Unknown mode {value!r}.", f"Use one of: {', '.join(MODES)}.")
    mode: Mode = value  # type: ignore[assignment]
    return mode


class ApprovalRequest(BaseModel):
    """A pending tool call that needs a human decision."""

    tool_call_id: str
    tool_name: str
    kind: ToolKind
    arguments: dict[str, Any] = Field(default_factory=dict)


class Decision(BaseModel):
    """The answer to one ApprovalRequest; only valid for the call with the same ``tool_call_id``."""

    tool_call_id: str
    verdict: Literal["once", "always", "deny"]
    reason: str = ""


class Verdict(BaseModel):
    allowed: bool
    reason: str = ""


Prompter = Callable[[ApprovalRequest], Awaitable[Decision]]


class Approvals:
    """The mode plus the decisions taken so far in this session."""

    def __init__(self, mode: str, prompter: Prompter | None = None) -> None:
        self.mode: Mode = check_mode(mode)
        self.prompter = prompter
        self.always_allowed: set[str] = set()

    def set_mode(self, mode: str) -> None:
        self.mode = check_mode(mode)

    def offered(self, kind: ToolKind) -> bool:
        """Whether a tool of this kind is shown to the model at all (read-only mode plans only)."""
        return self.mode != "read-only" or kind is ToolKind.READ

    def needs_approval(self, tool_name: str, kind: ToolKind) -> bool:
        if kind is ToolKind.READ or self.mode == "yolo" or tool_name in self.always_allowed:
            return False
        return not (self.mode == "auto-edit" and kind is ToolKind.EDIT)

    async def check(self, request: ApprovalRequest) -> Verdict:
        """Allow, ask (when someone can answer) or deny this one call."""
        if not self.offered(request.kind):
            return Verdict(
                allowed=False,
                reason=f"{request.tool_name} is not available in read-only mode: only read and plan.",
            )
        if not self.needs_approval(request.tool_name, request.kind):
            return Verdict(allowed=True)
        if self.prompter is None:
            return Verdict(
                allowed=False,
                reason=(
                    f"{request.tool_name} needs approval in {self.mode} mode and nobody can approve it "
                    "(no terminal). Do not retry it; say what you would change instead, or the user can "
                    "rerun with --mode auto-edit (edits) or --mode yolo (everything)."
                ),
            )
        decision = await self.prompter(request)
        return self.apply(request, decision)

    def apply(self, request: ApprovalRequest, decision: Decision) -> Verdict:
        """Turn a decision into a verdict; a decision made for another call is refused."""
        if decision.tool_call_id != request.tool_call_id:
            raise InvalidInput(
                f"Decision for call {decision.tool_call_id!r} cannot approve pending call "
                f"{request.tool_call_id!r}.",
                "Answer the call that is pending.",
            )
        if decision.verdict == "deny":
            why = f": {decision.reason}" if decision.reason else ""
            return Verdict(allowed=False, reason=f"The user denied {request.tool_name}{why}")
        if decision.verdict == "always":
            self.always_allowed.add(request.tool_name)
        return Verdict(allowed=True)


def terminal_prompter(console: Console, lines: StdinLines) -> Prompter:
    """Ask on the terminal: approve once, always for this tool, or deny with a reason."""

    async def ask(request: ApprovalRequest) -> Decision:
        from rich.text import Text  # rich loads only when someone is asked

        question = Text.assemble(
            (f"Approve {request.tool_name}", "bold yellow"),
            f" ({request.kind.value})? y = once, a = always for this tool, n = deny [y/a/n] (n): ",
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
