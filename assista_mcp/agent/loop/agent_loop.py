"""The agent loop: model step, every tool call of the answer, repeat until a final answer or the cap.

Iterative, never recursive. Everything that happens is an event (renderer, session store, hooks);
every message is stored the moment it exists, so an interruption leaves a history that can be
resumed: each tool call the model made gets a result, if only "interrupted".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.loop import tool_calls
from assista_mcp.agent.loop.approvals import ApprovalRequest, Approvals
from assista_mcp.agent.loop.change_preview import describe_change
from assista_mcp.agent.loop.history import INTERRUPTED, History, tool_message
from assista_mcp.agent.loop.hooks import Hooks
from assista_mcp.agent.loop.outlet import EventOutlet, Sink
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.loop.tool_calls import Denial, PendingCall, Prepared, prepare_calls, read_groups
from assista_mcp.agent.loop.toolset import ToolInfo, ToolOutcome, Toolset
from assista_mcp.agent.model.client import (
    ContextWindowExceeded,
    ModelClient,
    ModelError,
    ModelReply,
    ToolCall,
)
from assista_mcp.safety.effects import Effect

Status = Literal["final", "max_steps", "interrupted", "error"]
MAX_CONDENSE_PER_STEP = 3
CONTEXT_FILL = 0.9  # condense ahead of time above this share of a known context window


@dataclass
class TurnResult:
    status: Status
    text: str
    steps: int
    usage: Usage = field(default_factory=Usage)


class AgentLoop:
    """One session's conversation with a model over a toolset. ``run_turn`` per user message."""

    def __init__(
        self,
        *,
        model: ModelClient,
        toolset: Toolset,
        approvals: Approvals,
        store: SessionStore,
        session_id: str,
        system: str,
        max_steps: int = 30,
        hooks: Hooks | None = None,
        sinks: Sequence[Sink] = (),
    ) -> None:
        self.model = model
        self.toolset = toolset
        self.approvals = approvals
        self.store = store
        self.system = system
        self.max_steps = max_steps
        self.hooks = hooks or Hooks()
        self.sinks = list(sinks)
        self._started = False
        self._partial_text: list[str] = []
        self.outlet = EventOutlet(store, self.sinks, self.hooks)
        self._in_model_call = False
        self._open(session_id)

    # -- public ---------------------------------------------------------------------------------
    async def run_turn(self, task: str) -> TurnResult:
        """Handle one user message until a final answer, the step cap, an error or a cancel."""
        if not self._started:
            self._started = True
            self.hooks.session_start(self.session_id)
        if not self.store.get(self.session_id).title:
            self.store.update(self.session_id, title=" ".join(task.split())[:120])
        self.store.update(self.session_id, status="running")
        self._record({"role": "user", "content": task})
        usage = Usage()
        try:
            return await self._turn(usage)
        except anyio.get_cancelled_exc_class():
            self._interrupted()
            raise
        except Exception as exc:
            self._close_dangling(f"No result: the run failed ({type(exc).__name__}).")
            self.hooks.on_error(exc)
            self._finish("error", f"Internal error: {type(exc).__name__}: {exc}", usage)
            raise

    def close(self) -> None:
        if self._started:
            self._started = False
            self.hooks.session_end(self.session_id)

    def reset(self, session_id: str) -> None:
        """Continue in another (e.g. a fresh) session with the same model, tools and mode."""
        self.close()
        self._open(session_id)

    def _open(self, session_id: str) -> None:
        """Take up a session's stored history; calls left open by a previous run get a result."""
        self.session_id = session_id
        self.history = History(self.store.messages(session_id))
        self.step = self.store.get(session_id).steps  # step numbers continue across resumed runs
        self._close_dangling("No result: the previous run stopped before this call finished.")

    def emit(self, event: StreamEvent) -> None:
        """Send one event to the store, the sinks (renderers) and then the hooks, secrets redacted."""
        if not event.step:
            event.step = self.step
        if event.type == "text":
            self._partial_text.append(event.text)
        self.outlet.send(self.session_id, event)

    # -- the loop ---------------------------------------------------------------------------------
    async def _turn(self, usage: Usage) -> TurnResult:
        touched: set[str] = set()
        steps_this_turn = 0
        while True:
            if steps_this_turn >= self.max_steps:
                text = (
                    f"Stopped after {self.max_steps} steps (--max-steps). The session is kept: "
                    f'continue with `assista-odoo run --session {self.session_id} "..."`.'
                )
                return self._finish("max_steps", text, usage, steps_this_turn)
            steps_this_turn += 1
            self.step += 1
            try:
                reply = await self._model_step()
            except ModelError as exc:
                self.emit(StreamEvent(type="error", text=str(exc)))
                self.hooks.on_error(exc)
                return self._finish("error", f"The model failed: {exc}", usage, steps_this_turn)
            usage += reply.usage
            self.store.add_usage(self.session_id, reply.usage)
            self._record(reply.to_message())
            if reply.tool_calls:
                await self._run_tools(reply.tool_calls, touched)
                continue
            follow_up = await self.hooks.after_turn(set(touched))
            if not follow_up:
                return self._finish("final", reply.text, usage, steps_this_turn)
            touched.clear()
            self._record({"role": "user", "content": follow_up})

    async def _model_step(self) -> ModelReply:
        tools = self.toolset.openai_specs({e for e in Effect if self.approvals.offered(e)})
        await self._fit_context_window()
        for _ in range(MAX_CONDENSE_PER_STEP + 1):
            messages = [{"role": "system", "content": self.system}, *self.history.view()]
            self.hooks.before_model_call(messages)
            self._partial_text = []
            self._in_model_call = True
            try:
                reply = await self.model.complete(messages, tools, self.emit)
            except ContextWindowExceeded as exc:
                await self._condense(exc.message)
                continue
            finally:
                self._in_model_call = False
            return tool_calls.with_unique_ids(reply, self.step, self.history.call_ids())
        raise ModelError("The conversation still does not fit the context window after condensing.")

    async def _fit_context_window(self) -> None:
        """Condense before sending when the history clearly exceeds the model's known window."""
        window = self.model.context_window()
        if not window:
            return
        for _ in range(MAX_CONDENSE_PER_STEP):
            messages = [{"role": "system", "content": self.system}, *self.history.view()]
            try:
                tokens = self.model.count_tokens(messages)
            except Exception:  # no tokenizer for this model: rely on the provider's error instead
                return
            if tokens <= window * CONTEXT_FILL or self.history.next_cut() is None:
                return
            await self._condense(f"about {tokens} tokens for a {window}-token window")

    async def _condense(self, why: str) -> None:
        cut = self.history.next_cut()
        if cut is None:
            raise ModelError(
                f"The context window is exceeded and nothing older is left to condense: {why}",
                "Start a new session, or use a model with a larger context window.",
            )
        older = self.history.to_condense(cut)
        self.emit(
            StreamEvent(
                type="error", text=f"Context window full ({why}): condensing {len(older)} older messages."
            )
        )
        self.history.condense(cut, await self.model.summarize(older, self._count_usage_only))

    def _count_usage_only(self, event: StreamEvent) -> None:
        """Summaries are not shown, but what they cost is counted."""
        if event.type == "usage" and event.usage is not None:
            self.store.add_usage(self.session_id, event.usage, steps=0)
            self.emit(event)

    # -- tools ------------------------------------------------------------------------------------
    async def _run_tools(self, calls: list[ToolCall], touched: set[str]) -> None:
        prepared = prepare_calls(calls, self.toolset)
        for group in read_groups(prepared):
            outcomes: dict[str, ToolOutcome] = {}
            if len(group) == 1:
                outcomes[group[0].call.id] = await self._execute(group[0], touched)
            else:
                async with anyio.create_task_group() as tasks:
                    for item in group:
                        tasks.start_soon(self._execute_into, item, touched, outcomes)
            for item in group:  # stored in call order, whatever finished first
                self._record(tool_message(item.call.id, outcomes[item.call.id].text))

    async def _execute_into(self, item: Prepared, touched: set[str], into: dict[str, ToolOutcome]) -> None:
        into[item.call.id] = await self._execute(item, touched)

    async def _execute(self, item: Prepared, touched: set[str]) -> ToolOutcome:
        call = item.call
        pending = item.pending()
        self.emit(
            StreamEvent(type="tool_call", tool_call_id=call.id, tool_name=call.name, arguments=item.arguments)
        )
        outcome = await self._outcome(item, pending, touched)
        self.emit(
            StreamEvent(
                type="tool_result",
                tool_call_id=call.id,
                tool_name=call.name,
                text=outcome.text,
                is_error=outcome.is_error,
                data=outcome.data,
            )
        )
        self.hooks.after_tool_result(pending, outcome)
        return outcome

    async def _outcome(self, item: Prepared, pending: PendingCall, touched: set[str]) -> ToolOutcome:
        if item.error is not None or item.tool is None:
            return ToolOutcome(text=item.error or "Unknown tool.", is_error=True)
        answer = self.hooks.before_tool_call(pending)
        if isinstance(answer, Denial):
            return ToolOutcome(text=f"Denied: {answer.reason}", is_error=True)
        # Only the arguments may change: the call's id, tool and so its effects stay bound.
        amended = pending.model_copy(update={"arguments": answer.arguments})
        request = self.approvals.request(
            amended.id, amended.name, amended.effect, amended.arguments, amended.paths
        )
        try:
            verdict = await self.approvals.check(request, self._describer(item.tool, amended))
        except Exception as exc:  # a refused or broken decision is a denial, never a crash
            return ToolOutcome(text=f"Denied: {exc}", is_error=True)
        if not verdict.allowed:
            return ToolOutcome(text=f"Denied: {verdict.reason}", is_error=True)
        if amended.effect is not Effect.READ and amended.paths.touched:
            await self.hooks.before_write(set(amended.paths.touched))
        outcome = await self.toolset.call(item.tool, amended.arguments)
        if amended.effect is not Effect.READ and not outcome.is_error:
            touched.update(amended.paths.touched)
        return outcome

    def _describer(self, tool: ToolInfo, call: PendingCall) -> Callable[[ApprovalRequest], Awaitable[str]]:
        async def describe(request: ApprovalRequest) -> str:
            return await describe_change(self.toolset, tool, call)

        return describe

    # -- bookkeeping ------------------------------------------------------------------------------
    def _record(self, message: dict[str, Any]) -> None:
        self.history.append(message)
        self.store.add_message(self.session_id, message)

    def _close_dangling(self, text: str) -> None:
        for call_id, _name in self.history.dangling_calls():
            self._record(tool_message(call_id, text))

    def _interrupted(self) -> None:
        """Ctrl-C: keep what was said, answer every open call, and say so."""
        partial = "".join(self._partial_text)
        if partial and self._in_model_call:
            self._record({"role": "assistant", "content": partial + "\n[interrupted by the user]"})
        self._close_dangling(INTERRUPTED + " (cancelled by the user)")
        self._finish("interrupted", "Interrupted: the session is kept and can be continued.", Usage())

    def _finish(self, status: Status, text: str, usage: Usage, steps: int = 0) -> TurnResult:
        self.store.update(self.session_id, status=status)
        total = self.store.get(self.session_id).usage
        data = {"status": status, "session_id": self.session_id}
        self.emit(StreamEvent(type="end", text=text, usage=total, data=data))
        return TurnResult(status=status, text=text, steps=steps, usage=usage)
