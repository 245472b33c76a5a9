"""Regular expressions in linear time: RE2 instead of Python's backtracking ``re``.

With ``re``, a pattern such as ``(.*.*)*Z`` takes exponential time on a long line and holds the
interpreter lock all along: one grep froze every other client of the server. RE2 answers in
time proportional to the text, whatever the pattern; the price is a few Python features it
does not have (lookarounds, backreferences, atomic groups), refused with a clear message.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from odoo_tools.errors import InvalidInput

MAX_PROGRAM_BYTES = 64 << 20  # RE2's memory for one compiled pattern (its default is 8 MiB)

_UNSUPPORTED = (
    ("(?=", "lookahead (?=...)"),
    ("(?!", "negative lookahead (?!...)"),
    ("(?<=", "lookbehind (?<=...)"),
    ("(?<!", "negative lookbehind (?<!...)"),
    ("(?>", "atomic group (?>...)"),
    ("\\Z", "\\Z (write \\z, or $)"),
)


class LinearRegex(Protocol):
    def search(self, text: bytes, pos: int = ...) -> Any: ...


def compile_linear(pattern: str, *, ignore_case: bool = False) -> LinearRegex:
    """``pattern`` compiled by RE2 to search UTF-8 bytes (a str would be re-encoded on every
    search), or InvalidInput naming what is wrong or unsupported."""
    import re2  # type: ignore[import-untyped]  # here: most runs compile no pattern

    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.log_errors = False  # the error reaches the caller as InvalidInput, not stderr
    options.max_mem = MAX_PROGRAM_BYTES
    try:
        return cast(LinearRegex, re2.compile(pattern.encode("utf-8", "surrogateescape"), options))
    except re2.error as exc:
        reason = (
            exc.args[0].decode("utf-8", "replace")
            if exc.args and isinstance(exc.args[0], bytes)
            else str(exc)
        )
        raise InvalidInput(
            f"Invalid regular expression {pattern!r}: {_explain(pattern, reason)}.", _HINT
        ) from exc


def _explain(pattern: str, reason: str) -> str:
    unsupported = [name for token, name in _UNSUPPORTED if token in pattern]
    if "invalid escape sequence: \\" in reason and reason[-1:].isdigit():
        unsupported.append(f"backreference {reason.rsplit(' ', 1)[-1]}")
    if unsupported:
        return f"{', '.join(unsupported)} is not supported (grep runs in linear time, on RE2)"
    return reason


_HINT = (
    "Escape special characters such as ( ) [ ] . * + ? with a backslash. Python regex syntax "
    "works except lookarounds, backreferences and atomic groups."
)
