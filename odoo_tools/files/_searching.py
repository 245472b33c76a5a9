"""grep: a regular expression over file contents, with include globs, context lines and caps.

The expression runs on RE2 (``_linear``): its time grows with the text, never exponentially,
so no pattern can hold a worker (and the interpreter lock) for minutes. ``stop`` is called
between files and every few thousand lines: a cancelled call raises there and stops working.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from odoo_tools.errors import AssistaError, InvalidInput
from odoo_tools.files._globs import compile_glob
from odoo_tools.files._linear import LinearRegex, compile_linear
from odoo_tools.files._listing import entries_under, is_top
from odoo_tools.files._models import GrepMatch, GrepResult
from odoo_tools.files._textio import decode_utf8, read_regular_file
from odoo_tools.files._walking import Found, StopCheck, keep_going
from odoo_tools.workspace import Workspace

MAX_MATCHES = 200
MAX_CONTEXT = 10
MAX_LINE_CHARS = 500
MAX_FILE_BYTES = 5 * 1024 * 1024  # larger files are skipped (and counted in the note)
MAX_OUTPUT_CHARS = 200_000
STOP_CHECK_LINES = 4096


@dataclass
class _Tally:
    matches: list[GrepMatch] = field(default_factory=list)
    chars: int = 0
    searched: int = 0
    matched_files: int = 0
    skipped_large: int = 0
    truncated: bool = False


def grep(
    ws: Workspace,
    pattern: str,
    path: str = ".",
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    context: int = 0,
    ignore_case: bool = False,
    max_matches: int = MAX_MATCHES,
    stop: StopCheck = keep_going,
) -> GrepResult:
    """Lines matching ``pattern`` in the text files under ``path`` (a folder or one file)."""
    regex = _compile(pattern, ignore_case)
    for glob in include:
        compile_glob(glob)  # a bad glob fails here, before any walking
    if not 0 <= context <= MAX_CONTEXT:
        raise InvalidInput(f"context must be between 0 and {MAX_CONTEXT}, got {context}.")
    if max_matches < 1:
        raise InvalidInput("max_matches must be at least 1.")
    tally = _Tally()
    for found in _files(ws, path, include, exclude):
        stop()
        if tally.truncated:
            break
        _grep_file(found, regex, context, max_matches, tally, stop)
    return GrepResult(
        pattern=pattern,
        matches=tally.matches,
        files_searched=tally.searched,
        files_matched=tally.matched_files,
        truncated=tally.truncated,
        note=_note(tally, max_matches),
    )


@dataclass(frozen=True)
class _Regex:
    line: LinearRegex  # what decides a match: the pattern applied to one line
    whole: LinearRegex | None  # a quick whole-file pre-check, when it cannot miss a line match


# A whole-file search finds every line match (multi-line mode makes ^ and $ work per line)
# unless the pattern is anchored to the text's very start or end.
_EDGE_SENSITIVE = ("\\A", "\\z")


def _compile(pattern: str, ignore_case: bool) -> _Regex:
    if not pattern:
        raise InvalidInput("Empty pattern.", "Give a regular expression, e.g. 'def _compute_'.")
    line = compile_linear(pattern, ignore_case=ignore_case)
    whole = (
        None
        if any(s in pattern for s in _EDGE_SENSITIVE)
        else compile_linear(f"(?m){pattern}", ignore_case=ignore_case)
    )
    return _Regex(line, whole)


def _files(ws: Workspace, path: str, include: Sequence[str], exclude: Sequence[str]) -> Iterator[Found]:
    """The files to search, walked lazily: once the match cap is hit the rest is never listed."""
    target = None if is_top(path) else ws.resolve(path)
    if target is not None and target.path.is_file():
        yield Found(target.path, target.rel, "file", 0, target.path.stat().st_size)
        return
    for found in entries_under(ws, path, None, exclude):
        if found.kind == "file" and (not include or any(found.matches(p) for p in include)):
            yield found


def _grep_file(found: Found, regex: _Regex, context: int, cap: int, tally: _Tally, stop: StopCheck) -> None:
    if (found.size or 0) > MAX_FILE_BYTES:
        tally.skipped_large += 1
        return
    try:
        data = read_regular_file(found.path, found.rel, MAX_FILE_BYTES)
    except (AssistaError, OSError):
        return  # vanished, hard-linked, swapped for a symlink, unreadable: not searched
    if decode_utf8(data) is None:
        return  # binary files are not searched
    tally.searched += 1
    # Searched as UTF-8 bytes: RE2 would re-encode a str on every call.
    if regex.whole is not None and not regex.whole.search(data):
        return  # most files: one scan of the whole text, no split into lines
    lines = data.split(b"\n")
    hit = False
    for index in _matching_lines(data, lines, regex, stop):
        if len(tally.matches) >= cap or tally.chars >= MAX_OUTPUT_CHARS:
            tally.truncated = True
            return
        hit = True
        match = GrepMatch(
            path=found.rel,
            line=index + 1,
            text=_clip(lines[index]),
            before=[_clip(x) for x in lines[max(index - context, 0) : index]],
            after=[_clip(x) for x in lines[index + 1 : index + 1 + context]],
        )
        tally.chars += len(match.text) + sum(len(x) for x in (*match.before, *match.after))
        tally.matches.append(match)
    tally.matched_files += hit


def _matching_lines(data: bytes, lines: list[bytes], regex: _Regex, stop: StopCheck) -> Iterator[int]:
    """Indexes of the lines the pattern matches, in order."""
    if regex.whole is None:
        for index, line in enumerate(lines):
            if not index % STOP_CHECK_LINES:
                stop()
            if regex.line.search(line):
                yield index
        return
    # The whole-text search jumps to the next line that can match: a line match is also a
    # whole-text match at the same place, so no line before the one found can match. A match
    # that runs on past its line's end is checked again on that line alone.
    index, counted, start, found = 0, 0, 0, 0
    while (hit := regex.whole.search(data, start)) is not None:
        found += 1
        if not found % STOP_CHECK_LINES:
            stop()
        line_start = data.rfind(b"\n", 0, hit.start()) + 1
        index += data.count(b"\n", counted, line_start)
        counted = line_start
        end = data.find(b"\n", hit.start())
        if (end == -1 or end >= hit.end()) or regex.line.search(lines[index]):
            yield index
        if end == -1:
            return
        start = end + 1


def _clip(raw: bytes) -> str:
    line = raw.decode("utf-8").rstrip("\r")
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + "…[line cut]"


def _note(tally: _Tally, cap: int) -> str | None:
    parts = []
    if tally.truncated:
        parts.append(
            f"Stopped after {len(tally.matches)} matches (cap {cap} matches / ~200 KB); "
            "narrow the pattern, the folder or include globs to see the rest."
        )
    if tally.skipped_large:
        parts.append(f"{tally.skipped_large} file(s) over {MAX_FILE_BYTES} bytes were not searched.")
    return " ".join(parts) or None
