"""The hooks every agent run gets: the user's plugins, then validate-and-fix, then checkpoints (undo).

All are plugins of the one hook specification (``plugins.py``); validation and checkpoints are
registered after the user's, so the checkpoint records each call as it will really run.

``SafetyNet.build(...)`` before the loop exists, ``bind(loop)`` once it does (the hooks then emit
their own events through the loop: validation calls, the report, checkpoint notices, plugin
failures). A turn's checkpoint is closed when no hook asks to keep going, so the fixes made in
validation rounds belong to the same undoable turn as the edits they fix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.safety.checkpointing import CheckpointHooks, open_store
from assista_mcp.agent.safety.plugins import Hooks, plugin_manager
from assista_mcp.agent.safety.validation import DEFAULT_ROUNDS, REPORT_TOOL, ValidationHooks
from assista_mcp.config.settings import Settings

if TYPE_CHECKING:
    from rich.console import Console

    from assista_mcp.agent.loop.agent_loop import AgentLoop


@dataclass
class SafetyOptions:
    plugins: list[str] = field(default_factory=list)  # --plugin module:attr
    entry_points: bool = True  # also load the assista_odoo.hooks entry-point group
    auto_commit: bool = False
    validate: bool = True
    max_fix_rounds: int = DEFAULT_ROUNDS


class SafetyNet(Hooks):
    """The loop's hooks: plugins (+ extra plugin objects), validation, checkpoints, in that order."""

    def __init__(self, settings: Settings, options: SafetyOptions, extra: Sequence[object] = ()) -> None:
        workspace = settings.workspace()
        self._loop: AgentLoop | None = None
        self._pending: list[str] = []
        manager = plugin_manager(options.plugins, entry_points=options.entry_points, report=self.warn)
        for plugin in extra:
            manager.register(plugin)
        self.checkpoints = CheckpointHooks(
            open_store(settings, workspace), workspace, auto_commit=options.auto_commit
        )
        self.validation = (
            ValidationHooks(
                workspace, max_rounds=options.max_fix_rounds, with_odoo=settings.odoo_bin is not None
            )
            if options.validate
            else None
        )
        if self.validation is not None:
            manager.register(self.validation, name="assista-odoo:validation")
        manager.register(self.checkpoints, name="assista-odoo:checkpoints")
        super().__init__(manager, self.warn)

    def bind(self, loop: AgentLoop) -> None:
        self._loop = loop
        self.checkpoints.emit = loop.emit
        if self.validation is not None:
            self.validation.bind(loop.toolset, loop.approvals, loop.emit)
        for text in self._pending:
            loop.emit(StreamEvent(type="error", text=text))
        self._pending.clear()

    def warn(self, text: str) -> None:
        """A hook's failure: an ``error`` event when the loop runs, kept until it does otherwise."""
        if self._loop is None:
            self._pending.append(text)
        else:
            self._loop.emit(StreamEvent(type="error", text=text))

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        follow_up = await super().after_turn(touched_paths)
        if follow_up is None:
            self.checkpoints.finish_turn()
        return follow_up


def report_printer(console: Console) -> Callable[[StreamEvent], None]:
    """A terminal sink: the validation report in full (the renderer shows one summary line)."""

    def show(event: StreamEvent) -> None:
        if event.type == "tool_result" and event.tool_name == REPORT_TOOL:
            console.print(
                event.text, style="red" if event.is_error else "green", markup=False, highlight=False
            )

    return show
