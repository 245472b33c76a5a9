"""Text from a model or a tool, made safe to print on a terminal.

Control characters (ESC sequences move the cursor, erase lines, retitle the window; a carriage
return overprints a line) and invisible format characters (bidirectional overrides) would let a
call display as a different one. They are shown as escapes instead: ``\\x1b``, ``\\u202e``.
"""

from __future__ import annotations

import unicodedata

_KEPT = {"\n", "\t"}
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control and format character written as a visible escape."""
    out: list[str] = []
    for char in text:
        if (keep_newlines and char in _KEPT) or not _is_control(char):
            out.append(char)
        elif char in _NAMED:
            out.append(_NAMED[char])
        else:
            code = ord(char)
            out.append(
                f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
            )
    return "".join(out)


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")
