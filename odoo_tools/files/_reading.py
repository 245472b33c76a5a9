"""read_file: one or many files per call, line ranges, head/tail, a per-call output cap.

A bad file in a batch (missing, binary, a folder, outside the sandbox) gets its own ``error``
and the others are still read. The cap keeps one call from flooding a model's context; whatever
it cuts is named in ``note`` together with the call that reads the rest.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from odoo_tools.errors import AssistaError, InvalidInput
from odoo_tools.files._models import FileContent, ReadFileResult
from odoo_tools.files._textio import decode_utf8, read_regular_file, split_lines
from odoo_tools.workspace import Workspace

MAX_READ_CHARS = 200_000
MAX_FILES_PER_CALL = 100
Encoding = Literal["utf-8", "base64"]


@dataclass(frozen=True)
class LineRange:
    """Which lines to return: ``offset``/``limit`` (1-based start, count), ``head`` or ``tail``."""

    offset: int | None = None
    limit: int | None = None
    head: int | None = None
    tail: int | None = None

    def validate(self) -> None:
        for name in ("offset", "limit", "head", "tail"):
            value = getattr(self, name)
            if value is not None and value < (1 if name == "offset" else 0):
                raise InvalidInput(f"{name} must be >= {1 if name == 'offset' else 0}, got {value}.")
        picked = [n for n in ("head", "tail") if getattr(self, n) is not None]
        if len(picked) == 2 or (picked and (self.offset is not None or self.limit is not None)):
            raise InvalidInput(
                "Use one of: offset/limit, head, or tail.", "e.g. offset=120, limit=40 or tail=50."
            )

    def select(self, lines: list[str]) -> tuple[int, list[str]]:
        """(first line number, selected lines)."""
        if self.head is not None:
            return 1, lines[: self.head]
        if self.tail is not None:
            # A slice, not deque(maxlen=tail): any count is valid (10**30 is the whole file), where
            # a count past the C index range raised OverflowError.
            start = max(len(lines) - self.tail, 0)
            return start + 1, lines[start:]
        start = (self.offset or 1) - 1
        end = len(lines) if self.limit is None else start + self.limit
        return start + 1, lines[start:end]


def read_files(
    ws: Workspace,
    paths: str | Iterable[str],
    *,
    lines: LineRange | None = None,
    line_numbers: bool = False,
    encoding: Encoding = "utf-8",
    max_chars: int = MAX_READ_CHARS,
) -> ReadFileResult:
    """Read each path; the total content returned stays within ``max_chars``."""
    wanted = [paths] if isinstance(paths, str) else list(paths)
    if not wanted:
        raise InvalidInput("No path given.", "Pass one path or a list of paths.")
    if len(wanted) > MAX_FILES_PER_CALL:
        raise InvalidInput(
            f"{len(wanted)} paths in one call; the limit is {MAX_FILES_PER_CALL}.", "Split the batch."
        )
    selection = lines or LineRange()
    selection.validate()
    if encoding == "base64" and selection != LineRange():
        raise InvalidInput("Line ranges apply to text only.", "Drop offset/limit/head/tail for base64.")
    budget = _Budget(max_chars)
    files = [_read_one(ws, p, selection, line_numbers, encoding, budget) for p in wanted]
    return ReadFileResult(files=files, note=budget.note())


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.cuts: list[str] = []

    def note(self) -> str | None:
        if not self.cuts:
            return None
        return "Output capped at about 200 KB per call. " + " ".join(self.cuts)


def _read_one(
    ws: Workspace, path: str, sel: LineRange, numbered: bool, encoding: Encoding, budget: _Budget
) -> FileContent:
    try:
        target = ws.resolve(path, purpose="read")
        if target.path.is_dir():
            raise InvalidInput(f"{target.rel!r} is a folder.", "Use list_directory to see its contents.")
        if budget.left <= 0:
            budget.cuts.append(f"{target.rel!r} was not read: call read_file again for it.")
            return FileContent(path=target.rel, truncated=True, error="Not read: output cap reached.")
        data = read_regular_file(target.path, target.rel)
    except AssistaError as exc:
        return FileContent(path=path, error=str(exc))
    except OSError as exc:
        return FileContent(path=path, error=f"Cannot read {path!r}: {exc.strerror}.")
    if encoding == "base64":
        return _as_base64(target.rel, data, budget)
    text = decode_utf8(data)
    if text is None:
        return FileContent(
            path=target.rel,
            size=len(data),
            error=f"{target.rel!r} is a binary file ({len(data)} bytes), not UTF-8 text. "
            "Pass encoding='base64' to get its bytes.",
        )
    return _as_text(target.rel, text, len(data), sel, numbered, budget)


def _as_base64(rel: str, data: bytes, budget: _Budget) -> FileContent:
    encoded = base64.b64encode(data).decode("ascii")
    if len(encoded) > budget.left:
        budget.cuts.append(f"{rel!r} ({len(data)} bytes) is too big for base64 in this call.")
        return FileContent(
            path=rel, size=len(data), encoding="base64", truncated=True,
            error=f"Base64 of {len(data)} bytes exceeds what is left of the output cap; "
            "read it alone in its own call (base64 works up to about 150 KB of bytes).",
        )  # fmt: skip
    budget.left -= len(encoded)
    return FileContent(path=rel, content=encoded, encoding="base64", size=len(data))


def _as_text(rel: str, text: str, size: int, sel: LineRange, numbered: bool, budget: _Budget) -> FileContent:
    all_lines = split_lines(text)
    first, chosen = sel.select(all_lines)
    shown, cut_inside_line = _fit(chosen, first, numbered, budget.left)
    last = first + len(shown) - 1
    content = (
        "".join(_number(first + i, line) for i, line in enumerate(shown)) if numbered else "".join(shown)
    )
    if cut_inside_line:
        content = content[: budget.left]
    budget.left -= len(content)
    truncated = len(shown) < len(chosen) or cut_inside_line
    if truncated:
        budget.cuts.append(_cut_note(rel, first, last, len(all_lines), cut_inside_line))
    return FileContent(
        path=rel,
        content=content,
        start_line=first if shown else None,
        end_line=last if shown else None,
        total_lines=len(all_lines),
        size=size,
        truncated=truncated,
    )


def _fit(lines: list[str], first: int, numbered: bool, left: int) -> tuple[list[str], bool]:
    """The lines that fit in ``left`` chars; when not even one fits, that line is cut (flag True)."""
    if not numbered and sum(map(len, lines)) <= left:
        return lines, False  # the usual case, without a Python loop per line
    used = 0
    for i, line in enumerate(lines):
        cost = len(line) + (len(_number(first + i, "")) if numbered else 0)
        if used + cost > left:
            if i == 0 and left > 0:
                return lines[:1], True
            return lines[:i], False
        used += cost
    return lines, False


def _number(line_no: int, line: str) -> str:
    return f"{line_no:>6}\t{line}"


def _cut_note(rel: str, first: int, last: int, total: int, inside_line: bool) -> str:
    if inside_line:
        return f"{rel!r}: line {first} is longer than the cap and was cut."
    nxt = last + 1
    return f"{rel!r}: lines {first}-{last} of {total} shown; read on with offset={nxt}."
