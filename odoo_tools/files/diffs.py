"""Unified diffs shown back to the caller after an edit or a dry run."""

from __future__ import annotations

import difflib

from odoo_tools.files.textio import split_lines

_NO_EOL = "\n\\ No newline at end of file\n"


def unified_diff(rel: str, before: str, after: str) -> str:
    diff = difflib.unified_diff(split_lines(before), split_lines(after), f"a/{rel}", f"b/{rel}")
    return "".join(line if line.endswith("\n") else line + _NO_EOL for line in diff)
