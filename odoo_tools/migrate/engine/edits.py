"""Source-offset edits: the only way a rule changes a file, so everything it does not touch stays
byte for byte as the developer wrote it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new``; ``rule`` is the id of the rule that asked for it."""

    start: int
    end: int
    new: str
    rule: str


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, list[Edit]]:
    """The text with the edits applied, and the edits kept: of two overlapping edits the one
    asked first wins (a later rule never rewrites what an earlier one already changed)."""
    kept: list[Edit] = []
    for edit in edits:
        if any(edit.start < other.end and other.start < edit.end for other in kept):
            continue
        if edit.start == edit.end and any(other.start < edit.start < other.end for other in kept):
            continue
        kept.append(edit)
    pieces: list[str] = []
    position = 0
    for edit in sorted(kept, key=lambda e: (e.start, e.end)):
        pieces.append(text[position : edit.start])
        pieces.append(edit.new)
        position = edit.end
    pieces.append(text[position:])
    return "".join(pieces), kept


def line_of(text: str, offset: int) -> int:
    """1-based line number of ``offset``."""
    return text.count("\n", 0, offset) + 1


def indentation_at(text: str, offset: int) -> str:
    """The whitespace that starts the line holding ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]
