"""The provider's own words inside a LiteLLM error.

LiteLLM's Anthropic and Gemini routes put the provider's JSON error body into the exception text
as a Python bytes literal (``AnthropicException - b'{"type": "error", ...}'``). People should read
what the provider said, once: the ``message`` of that body, with its kind when it adds something.
Shapes understood: Anthropic ``{"type": "error", "error": {"type", "message"}}``, Gemini
``{"error": {"code", "message", "status"}}`` (also as a one-element list), OpenAI
``{"error": {"message", "type"}}``.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

# A bytes literal holding a JSON object, as repr() prints it: b'{...}' or b"{...}".
BYTES_LITERAL = re.compile(r"""b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*\"""", re.S)
MAX_JSON_STARTS = 8  # where plain JSON may start; LiteLLM's texts hold at most one body


def provider_message(text: str) -> str | None:
    """The message of the first provider error body found in ``text``, or None."""
    for body in _bodies(text):
        message = _message_of(body)
        if message:
            return message
    return None


def _bodies(text: str) -> Iterator[Any]:
    for match in BYTES_LITERAL.finditer(text):
        try:
            body = json.loads(ast.literal_eval(match.group(0)).decode("utf-8", errors="replace"))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        yield body
    decoder = json.JSONDecoder()
    start = text.find("{")
    for _ in range(MAX_JSON_STARTS):
        if start < 0:
            return
        try:
            body = decoder.raw_decode(text, start)[0]
        except ValueError:
            body = None
        if body is not None:
            yield body
        start = text.find("{", start + 1)


def _message_of(body: Any) -> str | None:
    if isinstance(body, list) and body:  # Gemini's streaming endpoint wraps the error in a list
        body = body[0]
    if not isinstance(body, dict):
        return None
    error = body.get("error", body)
    if isinstance(error, str):
        return " ".join(error.split()) or None
    if not isinstance(error, dict) or not isinstance(error.get("message"), str):
        return None
    message = " ".join(error["message"].split())
    kind = error.get("status") or error.get("type")
    if isinstance(kind, str) and kind and kind != "error" and kind.lower() not in message.lower():
        return f"{message} ({kind})"
    return message or None
