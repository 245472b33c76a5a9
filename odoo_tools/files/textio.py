"""Bytes <-> text for the file tools: UTF-8 only; anything else counts as binary."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import InvalidInput


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


def read_text_file(path: Path, shown: str) -> TextFile:
    """Read a file that is about to be edited; binary files are refused."""
    text = decode_utf8(path.read_bytes())
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
