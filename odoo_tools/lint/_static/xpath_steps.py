"""Splitting an inheriting view's ``expr`` into its location steps, the one reading of it the
static checks share (where a spec lands: ``xpath_context``; what it anchors on: ``view_chain``)."""

from __future__ import annotations


def location_steps(expr: str) -> list[tuple[bool, str]] | None:
    """``//a/b/..`` -> [(True, "a"), (False, "b"), (False, "..")]; None for what is not one plain
    location path (a union, a function call at the top)."""
    parts: list[str] = []
    depth, quote, current = 0, "", ""
    for char in expr.strip():
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "/" and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        elif char in "|(" and depth == 0 and not current.strip().endswith("node"):
            return None
        current += char
    parts.append(current.strip())
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
