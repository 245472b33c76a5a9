"""Where every event of a run goes: the session store, the sinks (renderers), then the hooks.

Secrets are redacted on the way out, once for all of them. Streamed text is held until no secret
can be cut in two by a chunk boundary (``StreamRedactor``), and released before any other event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.safety.redaction import StreamRedactor, redact_data

if TYPE_CHECKING:
    from assista_mcp.agent.loop.hooks import Hooks

Sink = Callable[[StreamEvent], None]
STREAMED = ("text", "reasoning")


class EventOutlet:
    def __init__(self, store: SessionStore, sinks: Sequence[Sink], hooks: Hooks) -> None:
        self.store = store
        self.sinks = sinks
        self.hooks = hooks
        self._streams = {kind: StreamRedactor() for kind in STREAMED}

    def send(self, session_id: str, event: StreamEvent) -> None:
        if event.type in self._streams:
            self._flush(session_id, event.step, but=event.type)
            released = self._streams[event.type].feed(event.text)
            if released:
                self._deliver(session_id, event.model_copy(update={"text": released}))
            return
        self._flush(session_id, event.step)
        self._deliver(session_id, StreamEvent.model_validate(redact_data(event.model_dump())))

    def _flush(self, session_id: str, step: int, but: str = "") -> None:
        for kind, stream in self._streams.items():
            released = stream.flush() if kind != but else ""
            if released:
                event = StreamEvent(type=kind, text=released, step=step)  # type: ignore[arg-type]
                self._deliver(session_id, event)

    def _deliver(self, session_id: str, event: StreamEvent) -> None:
        self.store.add_event(session_id, event)
        for sink in self.sinks:
            sink(event)
        try:
            self.hooks.on_event(event)
        except Exception:  # a hook must never break the run or its display
            return
