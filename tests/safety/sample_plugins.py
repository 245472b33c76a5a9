"""Plugins loaded by the hook tests with ``--plugin tests.safety.sample_plugins:NAME``."""

from __future__ import annotations

import threading
from typing import Any

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.safety.plugins import Denial, PendingCall, hookimpl


class DenyDeletes:
    @hookimpl
    def before_tool_call(self, call: PendingCall) -> Denial | None:
        if call.name == "delete_file":
            return Denial(reason="This project never deletes files; move them to legacy/.")
        return None


class StampWrites:
    """Not decorated: functions named like a hook are enough."""

    def before_tool_call(self, call: PendingCall) -> dict[str, Any] | None:
        if call.name == "write_file":
            return {**call.arguments, "content": "# reviewed\n" + call.arguments["content"]}
        return None


class Explodes:
    def session_start(self, session_id: str) -> None:
        raise RuntimeError("boom at start")

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        raise RuntimeError("boom before the model")

    def on_event(self, event: StreamEvent) -> None:
        raise RuntimeError("boom on an event")


class CrashingGuard:
    def before_tool_call(self, call: PendingCall) -> None:
        raise RuntimeError("guard crashed")


class SlowWatcher:
    """Its on_event blocks until the session ends: the loop must not wait for it."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.gate = threading.Event()
        self.seen: list[str] = []
        self.seen_at_model_calls: list[int] = []
        self.threads: set[int] = set()
        self.loop_thread = 0

    def session_start(self, session_id: str) -> None:
        self.loop_thread = threading.get_ident()

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        self.seen_at_model_calls.append(len(self.seen))

    def on_event(self, event: StreamEvent) -> None:
        self.gate.wait(60)
        self.seen.append(event.type)
        self.threads.add(threading.get_ident())

    def session_end(self, session_id: str) -> None:
        self.gate.set()


deny_deletes = DenyDeletes()
stamp_writes = StampWrites()
explodes = Explodes()
crashing_guard = CrashingGuard()
slow_watcher = SlowWatcher()
