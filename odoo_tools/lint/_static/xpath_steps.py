"""Splitting an inheriting view's ``expr`` into its location steps, the one reading of it the
static checks share (where a spec lands: ``xpath_context``; what it anchors on: ``view_chain``)."""

from __future__ import annotations

import re

# The characters that can end a step or change how the rest is read; the names between them are
# skipped at C speed, so a path holding a huge name (a hostile 5 MB one) costs no loop per character.
_SPECIAL = re.compile(r"""['"\[\]/|(]""")


def location_steps(expr: str) -> list[tuple[bool, str]] | None:
    """``//a/b/..`` -> [(True, "a"), (False, "b"), (False, "..")]; None for what is not one plain
    location path (a union, a function call at the top)."""
    text = expr.strip()
    parts: list[str] = []
    depth, start, at = 0, 0, 0
    while (match := _SPECIAL.search(text, at)) is not None:
        char, at = match.group(), match.start() + 1
        if char in "'\"":
            closing = text.find(char, at)
            if closing < 0:
                break  # an unclosed quote: the rest is inside it
            at = closing + 1
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "/" and depth == 0:
            parts.append(text[start : at - 1].strip())
            start = at
        elif char in "|(" and depth == 0 and not text[start : at - 1].strip().endswith("node"):
            return None
    parts.append(text[start:].strip())
    steps: list[tuple[bool, str]] = []
    descendant = False  # a relative path starts at the arch's root element, "/form" at the document
    if parts and parts[0] == "":
        parts = parts[1:]
    for part in parts:
        if part == "":
            descendant = True
            continue
        steps.append((descendant, part))
        descendant = False
    return steps if steps else None


def last_step(expr: str) -> str | None:
    """The last step of a plain location path (``//a/b[@x='y']`` -> ``b[@x='y']``); None for
    ``..``, an axis, a function step (``node()``) or anything not a plain path."""
    steps = location_steps(expr)
    if not steps or expr.strip().endswith("/"):
        return None
    if any("(" in step.split("[", 1)[0] for _, step in steps):
        return None
    last = steps[-1][1]
    if last.startswith(".") or "::" in last.split("[", 1)[0]:
        return None
    return last
