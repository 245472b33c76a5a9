"""JSON with comments (VS Code's ``mcp.json``), edited in place so the user's comments stay.

Only what ``mcp-config --write`` needs: read a document that may hold ``//`` and ``/* */``
comments and trailing commas, and set one member of one top-level object (or one top-level
member, such as VS Code's ``inputs`` array), touching no other byte.
"""

from __future__ import annotations

import json
import re
from typing import Any

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/|[{}\[\],:]|[^\s{}\[\],:"/]+|\s+|/', re.DOTALL)


def loads(text: str) -> Any:
    """Parse JSON that may carry comments and trailing commas."""
    kept = [t for t in _TOKENS.findall(text) if not t.startswith(("//", "/*"))]
    cleaned = "".join(kept)
    cleaned = re.sub(r",(\s*[}\]])", r"\1", cleaned)
    return json.loads(cleaned) if cleaned.strip() else {}


def has_comments(text: str) -> bool:
    return any(t.startswith(("//", "/*")) for t in _TOKENS.findall(text))


def set_member(text: str, section: str, name: str, value: Any) -> str:
    """``text`` with ``section.name`` set to ``value`` (section: a top-level object, made if absent)."""
    members = _members(text)
    rendered = json.dumps(value, indent=2).replace("\n", "\n    ")
    if (section, name) in members:
        start, end = members[(section, name)]
        return text[:start] + rendered + text[end:]
    if (section,) in members:
        start, end = members[(section,)]
        return _insert_first(text, start, end, f'"{name}": {rendered}', "\n    ")
    start, end = members[()]
    block = json.dumps({}).replace("{}", "{\n    " + f'"{name}": {rendered}' + "\n  }")
    return _insert_first(text, start, end, f'"{section}": {block}', "\n  ")


def set_top(text: str, name: str, value: Any) -> str:
    """``text`` with the top-level member ``name`` set to ``value`` (its old value replaced)."""
    members = _members(text)
    rendered = json.dumps(value, indent=2).replace("\n", "\n  ")
    if (name,) in members:
        start, end = members[(name,)]
        return text[:start] + rendered + text[end:]
    start, end = members[()]
    return _insert_first(text, start, end, f'"{name}": {rendered}', "\n  ")


def _insert_first(text: str, start: int, end: int, member: str, indent: str) -> str:
    """Insert ``member`` right after the opening brace of the object spanning start..end."""
    inner = "".join(t for t in _TOKENS.findall(text[start + 1 : end - 1]) if not t.startswith(("//", "/*")))
    comma = "," if inner.strip() else ""
    return text[: start + 1] + indent + member + comma + text[start + 1 :]


def _members(text: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """Spans of the top-level object (key ``()``), its object and array members (``(key,)``) and
    the object members' members (``(key, name)``): where each value starts and ends in ``text``."""
    spans: dict[tuple[str, ...], tuple[int, int]] = {}
    stack: list[tuple[tuple[str, ...], int]] = []
    path: list[str] = []
    pending: str | None = None
    last_key: str | None = None
    value_start: int | None = None
    position = 0
    for token in _TOKENS.findall(text):
        here = position
        position += len(token)
        if token.startswith(("//", "/*")) or token.isspace():
            continue
        if token in "{[":
            key = tuple(path + ([pending] if pending is not None else []))
            stack.append((key, here))
            if token == "{":
                path = list(key)
            pending = None
            continue
        if token in "}]":
            key, start = stack.pop()
            if (len(key) <= 2 and token == "}") or (len(key) == 1 and token == "]"):
                spans[key] = (start, position)
            path = list(stack[-1][0]) if stack else []
            if value_start is not None and len(key) == len(path) + 1:
                value_start = None
            continue
        if token == ":":
            pending = last_key
            value_start = position
            continue
        if token == ",":
            pending = None
            continue
        if token.startswith('"') and pending is None:
            last_key = json.loads(token)
            continue
        if pending is not None and len(path) < 2:  # a scalar value: its own span
            spans[(*path, pending)] = (here, position)
            pending = None
    return spans
