"""Every extension point of the agent loop, declared once: the pluggy hook specification below.

A plugin is a module or object with functions named like the hooks (mark them with ``hookimpl`` or
not). It is loaded from the entry-point group ``assista_odoo.hooks`` or with ``--plugin
module:attr`` (repeatable) on ``run`` and ``chat`` (``safety/plugins.py`` loads them). The safety
net itself is made of plugins registered after yours: validate-and-fix (``safety/validation.py``),
then checkpoints (``safety/checkpointing.py``), which so record the call as your plugins left it.
``Hooks`` is what the loop calls: every plugin, in registration order, each isolated. Example::

    from assista_mcp.agent.loop.hooks import Denial, hookimpl

    @hookimpl
    def before_tool_call(call):
        if call.name == "delete_file":
            return Denial(reason="This project never deletes files; move it to legacy/ instead.")
        if call.name == "write_file":
            return {**call.arguments, "content": call.arguments["content"].replace("\\t", "    ")}
        return None

Hooks (every argument is optional in an implementation; ask only for what you use):

- ``session_start(session_id)`` / ``session_end(session_id)``
- ``before_model_call(messages)``: the OpenAI-format messages about to be sent (read them).
- ``on_event(event)``: every ``StreamEvent`` (secrets redacted); runs on a background thread, so a
  slow hook never delays rendering (events are delivered in order; at session end the queue is
  drained). A plugin with ``on_loop_thread = True`` gets them on the loop's thread instead.
- ``before_tool_call(call)``: ``call`` is a ``PendingCall`` (``id``, ``name``, ``arguments``, and
  from the effects registry ``effect`` and ``paths``). Return None to leave it, a dict of new
  arguments or an amended ``PendingCall`` to amend it, or ``Denial(reason=...)`` to stop it: the
  reason goes back to the model as the result. Plugins run in registration order, each seeing the
  previous amendment; approval is asked after them, for the call as amended.
- ``before_write(touched_paths)`` (may be ``async``): an approved call is about to write
  ``touched_paths``; the files are still as they were (validation records what already failed).
- ``after_tool_result(call, result)``: ``result`` has ``text``, ``is_error``, ``data``.
- ``on_error(error)``: an exception that stopped a turn.
- ``after_turn(touched_paths)`` (may be ``async``): the model gave its final answer after writing
  ``touched_paths``; return a message to keep the turn going (the answers of all plugins are
  joined and sent as the user's next message), or None.

A hook that raises is reported (an ``error`` event naming the plugin) and the loop goes on. A
raising ``before_tool_call`` denies the call: a guard that crashed cannot vouch for it.
"""

from __future__ import annotations

import inspect
import queue
import threading
from collections.abc import Callable
from typing import Any, cast

import pluggy

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.tool_calls import Denial, PendingCall
from assista_mcp.agent.loop.toolset import ToolOutcome

__all__ = ["Denial", "HookSpecs", "Hooks", "PendingCall", "hookimpl", "new_manager"]

PROJECT = "assista_odoo"
DRAIN_SECONDS = 5.0
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)
Report = Callable[[str], None]


class HookSpecs:
    """The hooks a plugin may implement (see the module docstring)."""

    @hookspec
    def session_start(self, session_id: str) -> None: ...

    @hookspec
    def session_end(self, session_id: str) -> None: ...

    @hookspec
    def before_model_call(self, messages: list[dict[str, Any]]) -> None: ...

    @hookspec
    def on_event(self, event: StreamEvent) -> None: ...

    @hookspec
    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial | dict[str, Any] | None: ...

    @hookspec
    async def before_write(self, touched_paths: set[str]) -> None: ...

    @hookspec
    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None: ...

    @hookspec
    def on_error(self, error: BaseException) -> None: ...

    @hookspec
    async def after_turn(self, touched_paths: set[str]) -> str | None: ...


HOOK_NAMES = frozenset(n for n in vars(HookSpecs) if not n.startswith("_"))


class _Manager(pluggy.PluginManager):
    """Functions named like a hook count as implementations even without ``@hookimpl``."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name in HOOK_NAMES and callable(getattr(plugin, name, None)):
            return cast(Any, {})
        return opts


def new_manager() -> pluggy.PluginManager:
    """A plugin manager that knows the hooks and nothing registered yet."""
    manager = _Manager(PROJECT)
    manager.add_hookspecs(HookSpecs)
    return manager


class Hooks:
    """What the loop calls: every registered plugin, each implementation isolated from the others."""

    def __init__(self, manager: pluggy.PluginManager | None = None, report: Report | None = None) -> None:
        self.manager = manager or new_manager()
        self.report = report or _ignore
        self._reported: set[tuple[str, str]] = set()
        self._late: queue.SimpleQueue[str] = queue.SimpleQueue()  # failures seen on the worker
        self._events: queue.Queue[StreamEvent | None] = queue.Queue()
        self._worker: threading.Thread | None = None

    @classmethod
    def of(cls, *plugins: object, report: Report | None = None) -> Hooks:
        """Hooks calling just these plugins (in this order)."""
        manager = new_manager()
        for plugin in plugins:
            manager.register(plugin)
        return cls(manager, report)

    def session_start(self, session_id: str) -> None:
        if self._worker is None and self._impls(
            "on_event", background=True
        ):  # again after /clear ended a session
            self._events = queue.Queue()  # its own queue: a worker still draining keeps the old one
            self._worker = threading.Thread(
                target=self._deliver, args=(self._events,), name="assista-plugin-events", daemon=True
            )
            self._worker.start()
        self._call("session_start", session_id=session_id)

    def session_end(self, session_id: str) -> None:
        self._call("session_end", session_id=session_id)
        self._stop_worker()
        self._flush()

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        self._flush()
        self._call("before_model_call", messages=messages)

    def on_event(self, event: StreamEvent) -> None:
        for impl in self._impls("on_event", background=False):
            self._invoke_isolated(impl, "on_event", event=event)
        if self._worker is not None:
            self._events.put_nowait(event)

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        for impl in self._impls("before_tool_call"):
            try:
                answer = _invoke(impl, call=call)
            except Exception as exc:
                self._failed(impl, "before_tool_call", exc, always=True)
                return Denial(reason=f"plugin {impl.plugin_name} failed while checking this call: {exc}")
            if isinstance(answer, Denial):
                return Denial(reason=f"{answer.reason} (plugin {impl.plugin_name})")
            if isinstance(answer, dict):
                call = call.model_copy(update={"arguments": answer})
            elif isinstance(answer, PendingCall):
                call = call.model_copy(update={"arguments": answer.arguments})  # id and name stay bound
        return call

    async def before_write(self, touched_paths: set[str]) -> None:
        for impl in self._impls("before_write"):
            try:
                answer = _invoke(impl, touched_paths=set(touched_paths))
                if inspect.isawaitable(answer):
                    await answer
            except Exception as exc:
                self._failed(impl, "before_write", exc, always=True)

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None:
        self._call("after_tool_result", call=call, result=result)

    def on_error(self, error: BaseException) -> None:
        self._call("on_error", error=error)

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        follow_ups: list[str] = []
        for impl in self._impls("after_turn"):
            try:
                answer = _invoke(impl, touched_paths=set(touched_paths))
                if inspect.isawaitable(answer):
                    answer = await answer
            except Exception as exc:
                self._failed(impl, "after_turn", exc, always=True)
                continue
            if answer:
                follow_ups.append(str(answer))
        return "\n\n".join(follow_ups) or None

    # -- internals -------------------------------------------------------------------------------
    def _impls(self, name: str, *, background: bool | None = None) -> list[Any]:
        """Registration order (pluggy's own calls go LIFO); ``background``: only on_event
        implementations run off (True) or on (False) the loop's thread."""
        impls = list(getattr(self.manager.hook, name).get_hookimpls())
        if background is None:
            return impls
        return [i for i in impls if bool(getattr(i.plugin, "on_loop_thread", False)) is not background]

    def _call(self, name: str, **kwargs: Any) -> None:
        for impl in self._impls(name):
            self._invoke_isolated(impl, name, **kwargs)

    def _invoke_isolated(self, impl: Any, name: str, **kwargs: Any) -> None:
        try:
            _invoke(impl, **kwargs)
        except Exception as exc:
            self._failed(impl, name, exc)

    def _failed(self, impl: Any, hook: str, exc: Exception, *, always: bool = False) -> None:
        key = (str(impl.plugin_name), hook)
        if key in self._reported and not always:
            return  # said once per plugin and hook: a hook failing on every event must not flood
        self._reported.add(key)
        self.report(f"plugin {impl.plugin_name}: {hook} raised {type(exc).__name__}: {exc}")

    def _deliver(self, events: queue.Queue[StreamEvent | None]) -> None:
        while (event := events.get()) is not None:
            for impl in self._impls("on_event", background=True):
                try:
                    _invoke(impl, event=event)
                except Exception as exc:
                    key = (str(impl.plugin_name), "on_event")
                    if key not in self._reported:
                        self._reported.add(key)
                        self._late.put(
                            f"plugin {impl.plugin_name}: on_event raised {type(exc).__name__}: {exc}"
                        )

    def _stop_worker(self) -> None:
        if self._worker is None:
            return
        self._events.put(None)
        self._worker.join(DRAIN_SECONDS)
        self._worker = None

    def _flush(self) -> None:
        """Report on_event failures from the worker thread here, on the loop's own thread."""
        while not self._late.empty():
            self.report(self._late.get())


def _invoke(impl: Any, **kwargs: Any) -> Any:
    return impl.function(*[kwargs[name] for name in impl.argnames])


def _ignore(text: str) -> None:
    return None
