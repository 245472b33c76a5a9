"""Plugins for the agent loop (pluggy, project name ``assista_odoo``), and hook composition.

A plugin is a module or object with functions named like the hooks below (mark them with
``hookimpl`` or not). It is loaded from the entry-point group ``assista_odoo.hooks`` or with
``--plugin module:attr`` (repeatable) on ``run`` and ``chat``. Example::

    from assista_mcp.agent.loop.hooks import Denial
    from assista_mcp.agent.safety.plugins import hookimpl

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
- ``on_event(event)``: every ``StreamEvent``; runs on a background thread, so a slow hook never
  delays rendering (events are delivered in order; at session end the queue is drained).
- ``before_tool_call(call)``: ``call`` is a ``PendingCall`` (``id``, ``name``, ``arguments``,
  ``kind``). Return None to leave it, a dict of new arguments or an amended ``PendingCall`` to
  amend it, or ``Denial(reason=...)`` to stop it: the reason goes back to the model as the result.
  Plugins run in registration order, each seeing the previous amendment.
- ``after_tool_result(call, result)``: ``result`` has ``text``, ``is_error``, ``data``.
- ``on_error(error)``: an exception that stopped a turn.

A hook that raises is reported (an ``error`` event naming the plugin) and the loop goes on. A
raising ``before_tool_call`` denies the call: a guard that crashed cannot vouch for it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any, cast

import pluggy

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.hooks import Denial, LoopHooks, NoHooks, PendingCall
from assista_mcp.agent.loop.toolset import ToolOutcome
from odoo_tools.errors import ConfigError

PROJECT = "assista_odoo"
ENTRY_POINT_GROUP = "assista_odoo.hooks"
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
    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None: ...

    @hookspec
    def on_error(self, error: BaseException) -> None: ...


HOOK_NAMES = frozenset(n for n in vars(HookSpecs) if not n.startswith("_"))


class _Manager(pluggy.PluginManager):
    """Functions named like a hook count as implementations even without ``@hookimpl``."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name in HOOK_NAMES and callable(getattr(plugin, name, None)):
            return cast(Any, {})
        return opts


def plugin_manager(
    specs: Sequence[str] = (), *, entry_points: bool = True, report: Report | None = None
) -> pluggy.PluginManager:
    """Plugins from the entry-point group and from ``module:attr`` specs (``--plugin``).

    An installed plugin that fails to load is reported and skipped (it must not stop every run);
    one named with ``--plugin`` is a usage error (ConfigError).
    """
    manager = _Manager(PROJECT)
    manager.add_hookspecs(HookSpecs)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if entry_points else ():
        try:
            manager.register(entry.load(), name=entry.name)
        except Exception as exc:
            (report or _ignore)(
                f"plugin {entry.name} ({entry.value}) not loaded: {type(exc).__name__}: {exc}"
            )
    for spec in specs:
        manager.register(load_plugin(spec), name=spec)
    return manager


def load_plugin(spec: str) -> object:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise ConfigError(
            f"Could not import plugin {spec!r}: {type(exc).__name__}: {exc}.",
            "Give --plugin as module or module:attr, importable from this Python environment.",
        ) from exc
    if not attr:
        return module
    try:
        return cast(object, getattr(module, attr))
    except AttributeError:
        raise ConfigError(f"Plugin {spec!r}: module {module_name} has no {attr!r}.") from None


class PluginHooks(NoHooks):
    """``LoopHooks`` calling every plugin; each implementation is isolated from the others."""

    def __init__(self, manager: pluggy.PluginManager, report: Report) -> None:
        self.manager = manager
        self.report = report
        self._reported: set[tuple[str, str]] = set()
        self._late: queue.SimpleQueue[str] = queue.SimpleQueue()  # failures seen on the worker
        self._events: queue.Queue[StreamEvent | None] = queue.Queue()
        self._worker: threading.Thread | None = None

    def session_start(self, session_id: str) -> None:
        if self._worker is None and self._impls("on_event"):  # again after /clear ended a session
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

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None:
        self._call("after_tool_result", call=call, result=result)

    def on_error(self, error: BaseException) -> None:
        self._call("on_error", error=error)

    # -- internals -------------------------------------------------------------------------------
    def _impls(self, name: str) -> list[Any]:
        hook = getattr(self.manager.hook, name)
        return list(hook.get_hookimpls())  # registration order (pluggy's own calls go LIFO)

    def _call(self, name: str, **kwargs: Any) -> None:
        for impl in self._impls(name):
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
            for impl in self._impls("on_event"):
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


def _ignore(text: str) -> None:
    return None


def _invoke(impl: Any, **kwargs: Any) -> Any:
    return impl.function(*[kwargs[name] for name in impl.argnames])


class CompositeHooks:
    """Several ``LoopHooks`` as one: called in order, each isolated from the others' failures.

    ``before_tool_call`` chains the amendments and stops at the first denial; ``after_turn``
    joins the follow-ups (the loop keeps going when any hook asks).
    """

    def __init__(self, hooks: Sequence[LoopHooks], report: Report) -> None:
        self.hooks = list(hooks)
        self.report = report

    def _each(self, method: str, *args: Any) -> None:
        for hook in self.hooks:
            try:
                getattr(hook, method)(*args)
            except Exception as exc:
                self.report(f"{type(hook).__name__}.{method} raised {type(exc).__name__}: {exc}")

    def session_start(self, session_id: str) -> None:
        self._each("session_start", session_id)

    def session_end(self, session_id: str) -> None:
        self._each("session_end", session_id)

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        self._each("before_model_call", messages)

    def on_event(self, event: StreamEvent) -> None:
        self._each("on_event", event)

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        for hook in self.hooks:
            try:
                answer = hook.before_tool_call(call)
            except Exception as exc:
                self.report(f"{type(hook).__name__}.before_tool_call raised {type(exc).__name__}: {exc}")
                return Denial(reason=f"a safety hook failed while checking this call: {exc}")
            if isinstance(answer, Denial):
                return answer
            call = answer
        return call

    def after_tool_result(self, call: PendingCall, result: ToolOutcome) -> None:
        self._each("after_tool_result", call, result)

    def on_error(self, error: BaseException) -> None:
        self._each("on_error", error)

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        follow_ups: list[str] = []
        for hook in self.hooks:
            try:
                answer = await hook.after_turn(set(touched_paths))
            except Exception as exc:
                self.report(f"{type(hook).__name__}.after_turn raised {type(exc).__name__}: {exc}")
                continue
            if answer:
                follow_ups.append(answer)
        return "\n\n".join(follow_ups) or None
