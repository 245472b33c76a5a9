"""Apply parsed hunks to a file's lines in memory; a hunk that does not fit raises EditConflict.

Like GNU patch, a hunk may sit some lines away from where its header says (earlier hunks or
edits moved it); the nearest place where its old lines match is used. Trailing whitespace is
forgiven as a second try. Hunks apply in order and never overlap.
"""

from __future__ import annotations

from collections.abc import Callable

from odoo_tools.errors import EditConflict
from odoo_tools.files._patching.parser import Hunk

Compare = Callable[[str, str], bool]


def _exact(a: str, b: str) -> bool:
    return a == b


def _loose(a: str, b: str) -> bool:
    return a.rstrip() == b.rstrip()


def apply_hunks(text: str, hunks: list[Hunk], label: str) -> str:
    """The new text after ``hunks``; ``text`` uses ``\\n`` line endings."""
    lines = text.split("\n")
    eol_at_end = text.endswith("\n") or not text
    if text.endswith("\n"):
        lines.pop()
    elif not text:
        lines = []
    out: list[str] = []
    cursor = 0  # first line of ``lines`` not yet copied to ``out``
    drift = 0  # how far the previous hunk sat from its header's line
    for number, hunk in enumerate(hunks, start=1):
        expected = max(hunk.old_start - (1 if hunk.old_count else 0), 0) + drift
        if hunk.old_no_eol and hunk.old_lines:  # its last old line is the file's last line
            expected = len(lines) - len(hunk.old_lines)
            pos = _locate(lines, hunk.old_lines, expected, max(cursor, expected))
        else:
            pos = _locate(lines, hunk.old_lines, expected, cursor)
        if pos is None:
            raise EditConflict(_mismatch(label, number, hunk, lines, expected), _HINT)
        drift = pos - max(hunk.old_start - (1 if hunk.old_count else 0), 0)
        out.extend(lines[cursor:pos])
        out.extend(hunk.new_lines)
        cursor = pos + len(hunk.old_lines)
        if cursor >= len(lines):
            eol_at_end = _eol_after(hunk, eol_at_end)
    out.extend(lines[cursor:])
    if not out:
        return ""
    return "\n".join(out) + ("\n" if eol_at_end else "")


_HINT = "Nothing was written. Read the file again and regenerate the patch against its current content."


def _eol_after(hunk: Hunk, current: bool) -> bool:
    if hunk.new_no_eol:
        return False
    if hunk.old_no_eol or hunk.new_lines:
        return True
    return current


def _locate(lines: list[str], old: list[str], expected: int, floor: int) -> int | None:
    """The matching start nearest to ``expected``, at or after ``floor``."""
    last_start = len(lines) - len(old)
    if last_start < floor:
        return None
    expected = min(max(expected, floor), last_start)
    for compare in (_exact, _loose):
        for pos in _nearest_first(expected, floor, last_start):
            if all(compare(lines[pos + k], want) for k, want in enumerate(old)):
                return pos
    return None


def _nearest_first(center: int, lo: int, hi: int) -> list[int]:
    order = [center]
    for step in range(1, max(center - lo, hi - center) + 1):
        order.extend(p for p in (center - step, center + step) if lo <= p <= hi)
    return order


def _mismatch(label: str, number: int, hunk: Hunk, lines: list[str], expected: int) -> str:
    head = f"{label}, hunk {number} ({hunk.header}) does not apply"
    old = hunk.old_lines
    start = min(max(expected, 0), len(lines))
    for k, want in enumerate(old):
        have = lines[start + k] if start + k < len(lines) else None
        if have is None:
            return f"{head}: the file ends at line {len(lines)}, before the hunk's old lines."
        if have.rstrip() != want.rstrip():
            return (
                f"{head}: its old lines are not in the file. At line {start + k + 1} it expects "
                f"{want!r} but the file has {have!r}."
            )
    return f"{head}: its old lines are not in the file after the previous hunk."
