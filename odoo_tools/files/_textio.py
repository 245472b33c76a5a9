"""Bytes <-> text for the file tools: UTF-8 only; anything else counts as binary."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import InvalidInput, NotFound, SandboxViolation

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class TextFile:
    """A text file's content with line endings normalised to ``\\n`` (``newline`` remembers them)."""

    text: str
    newline: str  # "\r\n" when the file used CRLF, else "\n"

    def encode(self, text: str) -> bytes:
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return text.encode("utf-8")


def decode_utf8(data: bytes) -> str | None:
    """The text, or None when the bytes are binary (a NUL byte or invalid UTF-8)."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_regular_file(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file that passed the sandbox check.

    The last component is opened without following symlinks (a link swapped in after the check
    fails instead of leading outside), and hard-linked or oversized files are refused.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as exc:
        raise NotFound(f"{shown!r} no longer exists.", "List the folder again.") from exc
    except PermissionError as exc:
        raise InvalidInput(f"{shown!r} cannot be read: permission denied.", "Check its permissions.") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SandboxViolation(f"{shown!r} is a symlink that changed after it was checked.") from exc
        raise
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise InvalidInput(f"{shown!r} is not a regular file.", "Only regular files can be read.")
        if st.st_nlink > 1:
            raise SandboxViolation(
                f"{shown!r} is a hard link shared with another file.", "Copy it instead of linking."
            )
        if st.st_size > max_bytes:
            raise InvalidInput(
                f"{shown!r} is {st.st_size} bytes, over the {max_bytes}-byte limit.",
                "Use grep to find the lines you need.",
            )
        return handle.read()


def read_text_file(path: Path, shown: str) -> TextFile:
    """Read a file that is about to be edited; binary files are refused."""
    return decode_text(read_regular_file(path, shown), shown)


def decode_text(data: bytes, shown: str) -> TextFile:
    text = decode_utf8(data)
    if text is None:
        raise InvalidInput(
            f"{shown!r} is a binary file (not UTF-8 text); it cannot be edited as text.",
            "Replace it whole with write_file(encoding='base64') if you must change it.",
        )
    newline = "\r\n" if "\r\n" in text else "\n"
    return TextFile(text=text.replace("\r\n", "\n"), newline=newline)


def count_lines(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def split_lines(text: str) -> list[str]:
    """Lines with their ``\\n`` kept; only ``\\n`` ends a line (str.splitlines also splits on
    form feeds and other separators, which would shift line numbers against grep and editors)."""
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])
