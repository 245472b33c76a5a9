"""The prompt and transcript used to condense older turns when the context window fills up."""

from __future__ import annotations

import json
from typing import Any

SUMMARY_SYSTEM_PROMPT = (
    "You condense the earlier part of a coding session between a user and an assistant that "
    "works on Odoo addons with tools. Write a compact summary the assistant can continue from: "
    "the user's goal, decisions taken, files read or changed (paths), tool results that still "
    "matter (errors, findings, test outcomes), and what remains to do. Plain text, no preamble."
)
MAX_MESSAGE_CHARS = 2000
MAX_TRANSCRIPT_CHARS = 60000
MIN_TRANSCRIPT_CHARS = 4000


def transcript(messages: list[dict[str, Any]], max_chars: int = MAX_TRANSCRIPT_CHARS) -> str:
    """The messages as plain text, each cut to a readable size, the whole kept within bounds
    (the middle is dropped first: the task and the latest turns matter most)."""
    parts = [_render(m) for m in messages]
    text = "\n\n".join(parts)
    if len(text) <= max_chars:
        return text
    half = max_chars // 2
    return text[:half] + "\n\n[... earlier middle of the conversation omitted ...]\n\n" + text[-half:]


def _render(message: dict[str, Any]) -> str:
    role = str(message.get("role", "?"))
    lines = [f"[{role}{_name_suffix(message)}]"]
    content = _content_text(message.get("content"))
    if content:
        lines.append(_cut(content))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        lines.append(_cut(f"call {function.get('name', '?')}({function.get('arguments', '')})"))
    return "\n".join(lines)


def _name_suffix(message: dict[str, Any]) -> str:
    name = message.get("name") or message.get("tool_call_id")
    return f" {name}" if name else ""


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return json.dumps(content, default=str)


def _cut(text: str) -> str:
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    return text[:MAX_MESSAGE_CHARS] + f" [... {len(text) - MAX_MESSAGE_CHARS} more characters]"
