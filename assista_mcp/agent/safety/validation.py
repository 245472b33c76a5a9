"""Validate and fix: after a turn that edited files, check the touched modules and hand back findings.

``ValidationHooks.after_turn`` maps the touched paths to their addons (the first folder under a
root), calls ``check_module`` for each over MCP (the same tools an external host gets) and, when an
Odoo is configured, ``test_module`` (install + the module's tests; it asks for approval like any
install). Error findings go back to the model as a follow-up message so the loop continues, at most
``max_rounds`` times. Then a short report (files changed, what was validated, what still fails) is
emitted as a ``tool_result`` event named ``validation`` and so stored in the session.

Only what the task's edits introduced counts: before the first write into a module
(``before_write``), its error findings are recorded, and later checks leave those out, matched by
the same fingerprints as ``check --baseline`` (source, code, file and the text of the line, never
the line number). A module that was already broken is not the model's to fix, and must not cost
fix rounds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.approvals import Approvals
from assista_mcp.agent.loop.tool_calls import PendingCall
from assista_mcp.agent.loop.toolset import OWN_SERVER, ToolInfo, ToolOutcome, Toolset
from assista_mcp.agent.safety.validation_report import (
    MAX_LISTED,
    Problem,
    ValidationReport,
    error_findings,
    problem_of,
    problems_of,
)
from odoo_tools.addons import find_manifest_file
from odoo_tools.errors import AssistaError
from odoo_tools.findings import Finding
from odoo_tools.lint import LineReader, count_fingerprints, without_known
from odoo_tools.workspace import Workspace

DEFAULT_ROUNDS = 3
REPORT_TOOL = "validation"
Emit = Callable[[StreamEvent], None]


class ValidationHooks:
    """A built-in plugin (see ``plugins.py``): ``after_turn`` keeps the turn going while checks fail."""

    on_loop_thread = True  # reset at the turn's end before the next turn begins

    def __init__(
        self, workspace: Workspace, *, max_rounds: int = DEFAULT_ROUNDS, with_odoo: bool = False
    ) -> None:
        self.workspace = workspace
        self.max_rounds = max_rounds
        self.with_odoo = with_odoo
        self.toolset: Toolset | None = None
        self.approvals: Approvals | None = None
        self.emit: Emit = lambda event: None
        self.reports: list[ValidationReport] = []
        self._ids = itertools.count(1)
        self._reset()

    def bind(self, toolset: Toolset, approvals: Approvals, emit: Emit) -> None:
        self.toolset, self.approvals, self.emit = toolset, approvals, emit

    def _reset(self) -> None:
        self.rounds = 0
        self.changed: set[str] = set()
        self.modules: set[str] = set()
        self.known: dict[str, Counter[str]] = {}  # module -> fingerprints of its errors before any write

    def on_event(self, event: StreamEvent) -> None:
        if event.type == "end":
            self._reset()  # a turn cut short (step cap, Ctrl-C) starts the next one afresh

    async def before_write(self, touched_paths: set[str]) -> None:
        """Record the errors a module has before this task first writes into it."""
        for module in sorted({m for m in map(self.module_of, touched_paths) if m} - set(self.known)):
            self.known[module] = Counter()  # a failed check below: nothing known, all counted
            outcome = await self._call("check_module", _check_arguments(module), ValidationReport())
            if outcome is not None and not outcome.is_error:
                self.known[module] = count_fingerprints(error_findings(outcome), self._line_text())

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        self.changed |= touched_paths
        self.modules |= {m for m in map(self.module_of, touched_paths) if m}
        if not self.modules:
            return None
        report = await self.validate(sorted(self.modules))
        if not report.passed and self.rounds < self.max_rounds:
            self.rounds += 1
            return self._follow_up(report)
        self._finish(report)
        return None

    def module_of(self, user_path: str) -> str | None:
        """The addon a tool path belongs to: its first folder under the root, if it has a manifest."""
        try:
            resolved = self.workspace.resolve(user_path, purpose="read", must_exist=False)
        except AssistaError:
            return None
        name = resolved.rel.split("/", 1)[0]
        if name in ("", "."):
            return None
        return name if find_manifest_file(Path(resolved.root.path) / name) else None

    async def validate(self, modules: list[str]) -> ValidationReport:
        report = ValidationReport(files_changed=sorted(self.changed), fix_rounds=self.rounds)
        for module in modules:
            outcome = await self._call("check_module", _check_arguments(module), report)
            if outcome is not None:
                report.still_failing += self._newproblems_of(module, outcome, report)
        if self.with_odoo and not report.still_failing:
            outcome = await self._call("test_module", {"modules": modules}, report)
            if outcome is not None:
                report.still_failing += problems_of("test_module", outcome)
        report.passed = not report.still_failing
        return report

    async def _call(
        self, name: str, arguments: dict[str, Any], report: ValidationReport
    ) -> ToolOutcome | None:
        tool = self._tool(name)
        if tool is None:
            report.skipped.append(f"{name}: the tool is not available.")
            return None
        call_id = f"validate_{next(self._ids)}"
        self.emit(StreamEvent(type="tool_call", tool_call_id=call_id, tool_name=name, arguments=arguments))
        denied = await self._denied(tool, call_id, arguments)
        if denied:
            report.skipped.append(f"{name}: {denied}")
            self.emit(
                StreamEvent(
                    type="tool_result", tool_call_id=call_id, tool_name=name, text=denied, is_error=True
                )
            )
            return None
        assert self.toolset is not None
        outcome = await self.toolset.call(tool, arguments)
        self.emit(
            StreamEvent(
                type="tool_result",
                tool_call_id=call_id,
                tool_name=name,
                text=outcome.text,
                is_error=outcome.is_error,
                data=outcome.data,
            )
        )
        report.validated.append(f"{name}:{arguments.get('module') or ','.join(arguments.get('modules', []))}")
        return outcome

    def _newproblems_of(self, module: str, outcome: ToolOutcome, report: ValidationReport) -> list[Problem]:
        """check_module's errors less those the module had before the task wrote into it."""
        known = self.known.get(module)
        findings = error_findings(outcome)
        if not known or outcome.is_error or not findings:  # incl. a check that could not run
            return problems_of("check_module", outcome)
        kept = without_known(findings, known, self._line_text())
        report.already_failing += kept.hidden
        return [problem_of("check_module", f) for f in kept.findings]

    def _line_text(self) -> LineReader:
        def where(finding: Finding) -> Path:
            try:
                return self.workspace.resolve(finding.path, purpose="read").path
            except AssistaError:
                return Path("/nonexistent")  # no text: the fingerprint then uses the message

        return LineReader(where)

    def _tool(self, name: str) -> ToolInfo | None:
        if self.toolset is None:
            return None
        return next(
            (t for t in self.toolset.tools.values() if t.server == OWN_SERVER and t.registered == name), None
        )

    async def _denied(self, tool: ToolInfo, call_id: str, arguments: dict[str, Any]) -> str | None:
        """Installs need approval like any other call of the kind; read-only checks never do."""
        call = PendingCall(
            id=call_id,
            name=tool.name,
            arguments=arguments,
            registered=tool.registered,
            tool_effect=tool.effect,
        )
        if self.approvals is None:
            return None
        request = self.approvals.request(call.id, call.name, call.effect, call.arguments, call.paths)
        try:
            verdict = await self.approvals.check(request)
        except Exception as exc:
            return f"not approved ({exc})"
        return None if verdict.allowed else f"not approved ({verdict.reason})"

    def _follow_up(self, report: ValidationReport) -> str:
        listed = [p.line() for p in report.still_failing[:MAX_LISTED]]
        more = len(report.still_failing) - len(listed)
        if more > 0:
            listed.append(f"- ... and {more} more")
        return (
            f"Automatic validation after your edits (fix round {self.rounds} of {self.max_rounds}) "
            f"found {len(report.still_failing)} problem(s) in {', '.join(sorted(self.modules))}:\n"
            + "\n".join(listed)
            + "\nFix them with the edit tools; validation runs again when you answer."
        )

    def _finish(self, report: ValidationReport) -> None:
        self.reports.append(report)
        self.emit(
            StreamEvent(
                type="tool_result",
                tool_call_id=f"validate_{next(self._ids)}",
                tool_name=REPORT_TOOL,
                text=report.text(),
                is_error=not report.passed,
                data=report.model_dump(),
            )
        )
        self._reset()


def _check_arguments(module: str) -> dict[str, Any]:
    return {"module": module, "min_severity": "error"}
