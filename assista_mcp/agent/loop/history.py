"""What the model sees of a session: the stored history, with older turns condensed when needed.

The stored history (SessionStore) is never rewritten; condensing only changes the view sent to
the model: ``[summary of messages[:cut]] + messages[cut:]``. Cuts fall only before a user or an
assistant message, so a tool result is never separated from the call that asked for it.

Every view is also ``paired``: providers refuse a tool result that does not directly follow the
call it answers, and a call without a result (LiteLLM's Gemini route fails with "Missing
corresponding tool call", Anthropic answers 400). The loop never writes such a history, but a
stored one may hold it (two runs appending to one session at once, a session database edited by hand).
"""

from __future__ import annotations

from typing import Any

SUMMARY_PREFIX = "Summary of the earlier part of this session (older turns were condensed):\n"
INTERRUPTED = "No result: the call was interrupted before it finished."


class History:
    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.summary: str | None = None
        self.cut = 0

    def append(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def view(self) -> list[dict[str, Any]]:
        if self.summary is None:
            return paired(self.messages)
        head: list[dict[str, Any]] = [{"role": "user", "content": SUMMARY_PREFIX + self.summary}]
        request = self._current_request()
        if request is not None and request < self.cut:
            head.append(self.messages[request])  # the task itself is kept word for word
        return paired(head + self.messages[self.cut :])

    def next_cut(self) -> int | None:
        """Where to condense up to next, or None when nothing more can be condensed."""
        request = self._current_request()
        if request is not None and request > self.cut:
            return request
        safe = [
            i
            for i in range(self.cut + 1, len(self.messages) - 1)
            if self.messages[i].get("role") == "assistant"
        ]
        return safe[len(safe) // 2] if safe else None

    def to_condense(self, cut: int) -> list[dict[str, Any]]:
        """The messages a summary up to ``cut`` must cover (including the previous summary)."""
        previous = [{"role": "user", "content": SUMMARY_PREFIX + self.summary}] if self.summary else []
        return previous + self.messages[self.cut : cut]

    def condense(self, cut: int, summary: str) -> None:
        self.summary = summary
        self.cut = cut

    def dangling_calls(self) -> list[tuple[str, str]]:
        """(id, name) of the last assistant message's tool calls that have no result yet."""
        for index in range(len(self.messages) - 1, -1, -1):
            message = self.messages[index]
            if message.get("role") == "assistant":
                answered = {m.get("tool_call_id") for m in self.messages[index + 1 :]}
                calls = message.get("tool_calls") or []
                return [
                    (c["id"], c.get("function", {}).get("name", "")) for c in calls if c["id"] not in answered
                ]
        return []

    def call_ids(self) -> set[str]:
        """Ids of every tool call in the history."""
        return {c["id"] for m in self.messages for c in m.get("tool_calls") or []}

    def _current_request(self) -> int | None:
        for index in range(len(self.messages) - 1, -1, -1):
            if self.messages[index].get("role") == "user":
                return index
        return None


def paired(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` where each tool result directly follows the assistant message whose call it
    answers, once, and each call has a result: a stray result is left out of what the model sees
    (the stored history keeps it), a call without one is answered as not finished."""
    out: list[dict[str, Any]] = []
    waiting: list[str] = []  # calls of the last assistant message not answered yet, in order
    in_results = False  # only tool results since that assistant message
    for message in messages:
        if message.get("role") == "tool":
            call_id = message.get("tool_call_id")
            if in_results and call_id in waiting:
                waiting.remove(call_id)
                out.append(message)
            continue
        out.extend(tool_message(call_id, INTERRUPTED) for call_id in waiting)
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        waiting = [c.get("id") for c in calls or []]
        in_results = bool(waiting)
        out.append(message)
    out.extend(tool_message(call_id, INTERRUPTED) for call_id in waiting)
    return out


def tool_message(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}
