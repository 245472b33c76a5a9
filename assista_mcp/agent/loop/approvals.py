"""Who may run which call: the four modes, and approvals bound to the exact call that asked.

A call's effect comes from the registry (``assista_mcp.safety.effects``) for our own tools, by what the
call does: an ``apply_patch`` that removes a file is a deletion. A foreign server's tool is
``other`` unless the user marked it read-only (its own ``readOnlyHint`` is not trusted).

| mode      | read | edit     | delete, run code, other |
|-----------|------|----------|-------------------------|
| read-only | yes  | hidden   | hidden                  |
| ask       | yes  | approval | approval                |
| auto-edit | yes  | yes      | approval                |
| yolo      | yes  | yes      | yes                     |

A write to a protected path (``.git``, the project file, linter configurations, AGENTS.md, lint
baselines, or a path the registry marks protected for that call: ``save_lint_baseline``'s file) asks
in every mode but ``yolo``, and "always" never covers it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from assista_mcp.agent.loop.protected import ProtectedPaths
from assista_mcp.safety.effects import Effect, PathEffects
from odoo_tools.errors import InvalidInput

Mode = Literal["read-only", "ask", "auto-edit", "yolo"]
MODES: tuple[str, ...] = get_args(Mode)


def check_mode(value: str) -> Mode:
    if value not in MODES:
        raise InvalidInput(f"Unknown mode {value!r}.", f"Use one of: {', '.join(MODES)}.")
    mode: Mode = value  # type: ignore[assignment]
    return mode


class ApprovalRequest(BaseModel):
    """A pending tool call that needs a human decision."""

    tool_call_id: str
    tool_name: str
    effect: Effect
    arguments: dict[str, Any] = Field(default_factory=dict)
    paths: PathEffects = Field(default_factory=PathEffects)
    protected: list[str] = Field(default_factory=list, description="protected paths the call writes")
    change: str = Field(default="", description="the whole change (a diff), filled in before asking")


class Decision(BaseModel):
    """The answer to one ApprovalRequest; only valid for the call with the same ``tool_call_id``."""

    tool_call_id: str
    verdict: Literal["once", "always", "deny"]
    reason: str = ""


class Verdict(BaseModel):
    allowed: bool
    reason: str = ""


Prompter = Callable[[ApprovalRequest], Awaitable[Decision]]
Describe = Callable[[ApprovalRequest], Awaitable[str]]


class Approvals:
    """The mode plus the decisions taken so far in this session."""

    def __init__(
        self, mode: str, prompter: Prompter | None = None, protected: ProtectedPaths | None = None
    ) -> None:
        self.mode: Mode = check_mode(mode)
        self.prompter = prompter
        self.guard = protected or ProtectedPaths()
        self.always_allowed: set[tuple[str, Effect]] = set()

    def set_mode(self, mode: str) -> None:
        self.mode = check_mode(mode)

    def offered(self, effect: Effect) -> bool:
        """Whether a tool of this effect is shown to the model at all (read-only mode plans only)."""
        return self.mode != "read-only" or effect is Effect.READ

    def request(
        self, call_id: str, tool_name: str, effect: Effect, arguments: dict[str, Any], paths: PathEffects
    ) -> ApprovalRequest:
        """The request for one call, with the protected paths among those it writes or deletes."""
        return ApprovalRequest(
            tool_call_id=call_id,
            tool_name=tool_name,
            effect=effect,
            arguments=arguments,
            paths=paths,
            protected=[*dict.fromkeys([*paths.protected, *self.guard.among(paths.touched)])],
        )

    def needs_approval(self, request: ApprovalRequest) -> bool:
        if request.effect is Effect.READ or self.mode == "yolo":
            return False
        if request.protected:
            return True
        if (request.tool_name, request.effect) in self.always_allowed:
            return False
        return not (self.mode == "auto-edit" and request.effect is Effect.EDIT)

    async def check(self, request: ApprovalRequest, describe: Describe | None = None) -> Verdict:
        """Allow, ask (when someone can answer) or deny this one call.

        ``describe`` computes the change shown to the user; it runs only when someone is asked.
        """
        if not self.offered(request.effect):
            return Verdict(
                allowed=False,
                reason=f"{request.tool_name} is not available in read-only mode: only read and plan.",
            )
        if not self.needs_approval(request):
            return Verdict(allowed=True)
        if self.prompter is None:
            return Verdict(allowed=False, reason=self._nobody_to_ask(request))
        if describe is not None and not request.change:
            request = request.model_copy(update={"change": await describe(request)})
        decision = await self.prompter(request)
        return self.apply(request, decision)

    def _nobody_to_ask(self, request: ApprovalRequest) -> str:
        what = f"{request.tool_name} ({request.effect.value}"
        what += f", writes protected {', '.join(request.protected)})" if request.protected else ")"
        return (
            f"{what} needs approval in {self.mode} mode and nobody can approve it (no terminal). "
            "Do not retry it; say what you would change instead, or the user can rerun with "
            "--mode auto-edit (edits) or --mode yolo (everything)."
        )

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
        if decision.verdict == "always":  # this tool with this effect; protected paths still ask
            self.always_allowed.add((request.tool_name, request.effect))
        return Verdict(allowed=True)
