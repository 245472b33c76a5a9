"""``# pylint: disable=`` comments written with pylint-odoo's old message ids.

pylint-odoo before 8.0 numbered its messages ``X79NN``; they are ``X81NN`` since (``W7938``
except-pass is ``W8138``). A repository whose CI pins the old release silences a message with the
old id, which our newer pylint-odoo does not read: the message would come back, on a line the
repository's own CI accepts. Such a comment is honoured the way pylint would: on the line it
ends, or, alone on its line, for the lines below it in the same block.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from odoo_tools.storage import capped_lines

_NEW_ID = re.compile(r"^([CWERF])81(\d\d)$")
_DISABLE = re.compile(r"#\s*pylint\s*:\s*disable\s*=\s*([\w\-, ]+)")
_OLD_DISABLE = re.compile(r"#\s*pylint\s*:\s*disable\s*=[\w\-, ]*[CWERF]79\d\d")  # any old id
_LOOKBACK = 200  # lines; a standalone comment further up is not worth the read


def old_id(code: str) -> str:
    """``W8138`` -> ``W7938``; "" for a code that never had an old id."""
    match = _NEW_ID.match(code)
    return f"{match.group(1)}79{match.group(2)}" if match else ""


def disabled_by_old_id(path: Path, line: int | None, code: str) -> bool:
    """Whether a ``# pylint: disable=`` with ``code``'s old id covers ``line`` of ``path``."""
    old = old_id(code)
    if not old or not line:
        return False
    try:
        lines = _lines(path, path.stat().st_mtime_ns)
    except OSError:
        return False
    if not 0 < line <= len(lines):
        return False
    if old in _disabled(lines[line - 1]):
        return True
    target_indent = _indent(lines[line - 1])
    for number in range(line - 1, max(0, line - _LOOKBACK), -1):
        text = lines[number - 1]
        stripped = text.strip()
        if not stripped:
            continue
        indent = _indent(text)
        if stripped.startswith("#"):
            if indent <= target_indent and old in _disabled(stripped):
                return True
            continue
        if indent < target_indent:
            target_indent = indent  # climbing out: a comment must be at this level or above
            if target_indent == 0:
                return False
    return False


def _disabled(text: str) -> set[str]:
    match = _DISABLE.search(text)
    return {part.strip() for part in match.group(1).split(",")} if match else set()


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


@lru_cache(maxsize=64)
def _lines(path: Path, mtime_ns: int) -> list[str]:  # the mtime keys the cache: an edit re-reads
    """The lines of ``path``, or none when no line disables an old id (most files: a warm check
    asks this of every pylint finding, and walking up to 200 lines for each was 0.1 s)."""
    lines = capped_lines(path)
    return lines if any(_OLD_DISABLE.search(text) for text in lines) else []
