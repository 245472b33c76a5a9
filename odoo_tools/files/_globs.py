"""Globs, matched in linear time: ``*`` and ``?`` stay within one folder, ``**`` spans folders.

Each ``/``-separated part of a glob is one shell pattern, translated by the standard library's
``fnmatch`` (brackets exactly as fnmatch reads them: ``[!x]``, ``[]]``, ``[^a]`` = '^' or 'a').
CPython keeps those translations free of catastrophic backtracking. A ``**`` part matches any
number of folders (one or more when it ends the glob: ``static/**`` is what is inside
``static``); parts are matched against a path's parts by a set-of-states walk, so a glob with
many ``*`` or ``**`` costs (parts of the glob) x (parts of the path), never exponential time.
Hand-written regexes and wcmatch's translations were both exponential on such globs.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from odoo_tools.errors import InvalidInput

_NEVER = "(?!)"  # what fnmatch makes of a class no character can match, e.g. [z-a]

PartMatcher = Callable[[str], object]
_ANY_FOLDERS = None  # a ``**`` part: zero or more path parts


@dataclass(frozen=True)
class Glob:
    pattern: str
    parts: tuple[PartMatcher | None, ...]  # None = ``**``

    def matches(self, path: str) -> bool:
        """``path`` (POSIX, relative) matches, part for part."""
        names = path.split("/")
        if len(self.parts) == 1 and self.parts[0] is not None:
            return len(names) == 1 and self.parts[0](names[0]) is not None
        return _walk_states(self.parts, names)


@lru_cache(maxsize=512)
def compile_glob(pattern: str) -> Glob:
    """The glob, ready to match; InvalidInput when part of it can never match anything."""
    parts: list[PartMatcher | None] = []
    pieces = pattern.split("/")
    for index, piece in enumerate(pieces):
        if piece == "**":
            if index == len(pieces) - 1:  # a trailing ``**``: at least one part
                parts.append(_one_part(pattern, "*"))
            if not parts or parts[-1] is not _ANY_FOLDERS:
                parts.append(_ANY_FOLDERS)
            continue
        parts.append(_one_part(pattern, piece))
    return Glob(pattern, tuple(parts))


def _one_part(pattern: str, piece: str) -> PartMatcher:
    translated = fnmatch.translate(piece)
    if _NEVER in translated:
        raise InvalidInput(
            f"Invalid glob {pattern!r}: a [...] class in {piece!r} can match no character "
            "(a reversed range such as [z-a]?).",
            "Check its [...] ranges: write them low to high, e.g. [a-z].",
        )
    try:
        return re.compile(translated).match
    except re.error as exc:  # pragma: no cover - fnmatch builds valid expressions
        raise InvalidInput(f"Invalid glob {pattern!r}: {exc}.", "Check its [...] ranges.") from exc


def _walk_states(parts: tuple[PartMatcher | None, ...], names: list[str]) -> bool:
    """An NFA over glob parts: which parts could come next after each path part."""
    end = len(parts)
    states = _skip_any(parts, {0})
    for name in names:
        following: set[int] = set()
        for i in states:
            if i == end:
                continue
            part = parts[i]
            if part is None:
                following.add(i)  # ``**`` swallows this folder and stays
            elif part(name) is not None:
                following.add(i + 1)
        states = _skip_any(parts, following)
        if not states:
            return False
    return end in states


def _skip_any(parts: tuple[PartMatcher | None, ...], states: set[int]) -> set[int]:
    """Add the states reached by letting each ``**`` match zero parts."""
    reached = set(states)
    for i in sorted(states):
        while i < len(parts) and parts[i] is None:
            i += 1
            reached.add(i)
    return reached


def glob_matches(pattern: str, rel: str) -> bool:
    """A pattern with a '/' is matched against the relative path, otherwise against the name."""
    subject = rel if "/" in pattern else rel.rsplit("/", 1)[-1]
    return compile_glob(pattern).matches(subject)
