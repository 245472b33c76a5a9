"""Unified diffs shown back to the caller after an edit or a dry run."""

from __future__ import annotations

import difflib

from odoo_tools.files._textio import split_lines

_NO_EOL = "\n\\ No newline at end of file\n"


def unified_diff(rel: str, before: str, after: str, *, created: bool = False, deleted: bool = False) -> str:
    """Git-style diff of ``rel``; a created or deleted file is diffed against /dev/null."""
    old_name = "/dev/null" if created else f"a/{rel}"
    new_name = "/dev/null" if deleted else f"b/{rel}"
    diff = difflib.unified_diff(split_lines(before), split_lines(after), old_name, new_name)
    return "".join(line if line.endswith("\n") else line + _NO_EOL for line in diff)
