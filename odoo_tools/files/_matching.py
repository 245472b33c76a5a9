"""Finding ``old_text`` in a file: exact first, then a whitespace-tolerant line match.

The tolerant match compares whole lines with leading/trailing whitespace stripped and inner
runs of whitespace collapsed, so a model that got the indentation wrong still hits the right
lines; the replacement is then re-indented to the file's real indentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from odoo_tools.errors import EditConflict
from odoo_tools.files._textio import split_lines

_SPACES = re.compile(r"\s+")
MAX_LOCATIONS_SHOWN = 10


@dataclass(frozen=True)
class Match:
    start: int  # character offsets into the text
    end: int
    line: int  # 1-based line of ``start``
    strategy: Literal["exact", "whitespace"]
    replacement: str


def find_unique(text: str, old: str, new: str, label: str) -> Match:
    """The one place ``old`` occurs in ``text``, or EditConflict saying how many / what is closest."""
    exact = _exact_offsets(text, old)
    if len(exact) == 1:
        start = exact[0]
        return Match(start, start + len(old), _line_of(text, start), "exact", new)
    if len(exact) > 1:
        raise _ambiguous(label, [_line_of(text, o) for o in exact])
    lines = split_lines(text)
    windows = _tolerant_windows(lines, old)
    if len(windows) == 1:
        return _tolerant_match(lines, windows[0], old, new)
    if len(windows) > 1:
        raise _ambiguous(label, [w[0] + 1 for w in windows])
    raise EditConflict(
        f"{label}: old_text was not found (not even ignoring whitespace).",
        "Read the file again and copy old_text exactly. Closest region:\n" + closest_region(lines, old),
    )


def _exact_offsets(text: str, old: str) -> list[int]:
    found: list[int] = []
    start = text.find(old)
    while start != -1:
        found.append(start)
        start = text.find(old, start + 1)
    return found


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _ambiguous(label: str, lines: list[int]) -> EditConflict:
    shown = ", ".join(str(n) for n in lines[:MAX_LOCATIONS_SHOWN])
    more = f" and {len(lines) - MAX_LOCATIONS_SHOWN} more" if len(lines) > MAX_LOCATIONS_SHOWN else ""
    return EditConflict(
        f"{label}: old_text matches {len(lines)} places (lines {shown}{more}).",
        "Include more surrounding lines in old_text so it matches exactly one place.",
    )


def _norm(line: str) -> str:
    return _SPACES.sub(" ", line.strip())


def _old_lines(old: str) -> list[str]:
    lines = old.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _tolerant_windows(lines: list[str], old: str) -> list[tuple[int, int]]:
    wanted = [_norm(line) for line in _old_lines(old)]
    if not wanted:
        return []
    normed = [_norm(line) for line in lines]
    size = len(wanted)
    return [
        (i, i + size)
        for i in range(len(normed) - size + 1)
        if normed[i] == wanted[0] and normed[i : i + size] == wanted
    ]


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _tolerant_match(lines: list[str], window: tuple[int, int], old: str, new: str) -> Match:
    first, last = window
    start = sum(len(line) for line in lines[:first])
    end = start + sum(len(line) for line in lines[first:last])
    indents = _indent_map(_old_lines(old), lines[first:last])
    replacement = _reindent(_trim_like(new, old), indents)
    if lines[last - 1].endswith("\n") and replacement and not replacement.endswith("\n"):
        replacement += "\n"
    return Match(start, end, first + 1, "whitespace", replacement)


def _trim_like(new: str, old: str) -> list[str]:
    """new_text's lines, minus the blank lines old_text had around it (they were not matched);
    blank lines new_text adds beyond those are kept."""
    old_all, new_all = old.split("\n"), new.split("\n")
    lead = len(old_all) - len(old_all[next((i for i, x in enumerate(old_all) if x.strip()), 0) :])
    trail = len(old_all) - len(_strip_end(old_all))
    while lead and new_all and not new_all[0].strip():
        new_all.pop(0)
        lead -= 1
    while trail and new_all and not new_all[-1].strip():
        new_all.pop()
        trail -= 1
    return new_all


def _strip_end(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def _indent_map(old_lines: list[str], file_lines: list[str]) -> dict[str, str]:
    """Each indentation old_text used -> the indentation of the file line it matched."""
    mapping: dict[str, str] = {}
    for old_line, file_line in zip(old_lines, file_lines, strict=False):
        if old_line.strip():
            mapping.setdefault(_indent(old_line), _indent(file_line))
    return mapping


def _reindent(body: list[str], indents: dict[str, str]) -> str:
    """Give new_text's lines the file's indentation: an indent old_text used maps to the file's;
    a deeper one keeps its extra depth on top of the nearest shallower mapped indent."""
    by_depth = sorted(indents, key=len, reverse=True)
    out: list[str] = []
    for line in body:
        if not line.strip():
            out.append("")
            continue
        own = _indent(line)
        base = next((i for i in by_depth if own.startswith(i)), None)
        if base is None:  # shallower than anything old_text used: align with its first line
            out.append(next(iter(indents.values()), "") + line.lstrip(" \t"))
        else:
            out.append(indents[base] + line[len(base) :])
    return "\n".join(out)


def closest_region(lines: list[str], old: str, context: int = 2) -> str:
    """The file lines most similar to ``old``, numbered, to show where a failed edit aimed.

    Windows are ranked by how well their first and last lines resemble old_text's first and
    last lines (one cheap bigram comparison per file line), then the best few line by line.
    """
    if not lines:
        return "(the file is empty)"
    wanted_lines = [_bigrams(_norm(line)[:SCORE_CHARS]) for line in _old_lines(old)] or [frozenset()]
    size = len(wanted_lines)
    normed = [_bigrams(_norm(line)[:SCORE_CHARS]) for line in lines]
    first = _line_scores(normed, wanted_lines[0])
    last = _line_scores(normed, wanted_lines[-1]) if size > 1 else first
    starts = range(max(len(lines) - size + 1, 1))
    ranked = sorted(starts, key=lambda i: first[i] + last[min(i + size - 1, len(lines) - 1)], reverse=True)
    best = max(ranked[:10], key=lambda i: _window_score(normed[i : i + size], wanted_lines))
    lo, hi = max(best - context, 0), min(best + size + context, len(lines))
    return "".join(f"{n + 1:>6}\t{lines[n].rstrip(chr(10))}\n" for n in range(lo, hi)).rstrip("\n")


SCORE_CHARS = 200  # long (minified) lines are compared on their start only


def _bigrams(line: str) -> frozenset[str]:
    return frozenset(line[i : i + 2] for i in range(len(line) - 1)) if len(line) > 1 else frozenset([line])


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    # Dice coefficient of character bigrams: linear time, robust to typos and small changes.
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0


def _line_scores(normed: list[frozenset[str]], target: frozenset[str]) -> list[float]:
    return [_dice(line, target) for line in normed]


def _window_score(window: list[frozenset[str]], wanted: list[frozenset[str]]) -> float:
    return sum(_dice(a, b) for a, b in zip(window, wanted, strict=False))
