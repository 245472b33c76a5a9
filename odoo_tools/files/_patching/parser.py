"""Parse unified diffs as ``git diff`` and ``diff -u`` write them (new, deleted, renamed files too).

Hunk bodies are read by the counts in their ``@@`` header, so a removed line that itself starts
with ``--`` is never taken for a file header. An empty line inside a hunk counts as an empty
context line (editors and models often strip the single leading space).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from odoo_tools.errors import InvalidInput

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_GIT_HEADER = re.compile(r'^diff --git "?a/(.+?)"? "?b/(.+?)"?$')
DEV_NULL = "/dev/null"


@dataclass
class Hunk:
    header: str
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: list[tuple[str, str]] = field(default_factory=list)  # (tag in " -+", text)
    old_no_eol: bool = False  # "\ No newline at end of file" after an old-side line
    new_no_eol: bool = False

    @property
    def old_lines(self) -> list[str]:
        return [text for tag, text in self.lines if tag != "+"]

    @property
    def new_lines(self) -> list[str]:
        return [text for tag, text in self.lines if tag != "-"]


@dataclass
class FilePatch:
    old_path: str | None  # None for /dev/null (a new file)
    new_path: str | None  # None for /dev/null (a deleted file)
    git: bool = False
    hunks: list[Hunk] = field(default_factory=list)
    new_mode: int | None = None
    binary: bool = False
    headers_seen: bool = False  # its ---/+++ lines were read

    @property
    def label(self) -> str:
        return self.new_path or self.old_path or "?"


def parse_patch(patch: str) -> list[FilePatch]:
    """All file patches in ``patch``; InvalidInput naming the file and hunk when it is malformed."""
    lines = patch.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    files: list[FilePatch] = []
    current: FilePatch | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("diff --git "):
            current = _git_file(line)
            files.append(current)
        elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = _header_path(line), _header_path(lines[i + 1])
            if current is None or not _continues(current, old, new):
                current = FilePatch(None, None)
                files.append(current)
            current.old_path, current.new_path, current.headers_seen = old, new, True
            i += 1
        elif line.startswith("@@"):
            if current is None:
                raise InvalidInput("The patch has a hunk before any file header.", _FORMAT_HINT)
            i = _read_hunk(lines, i, current)
            continue
        elif current is not None and current.git:
            _git_extended_header(line, current)
        i += 1
    if not files:
        raise InvalidInput("No file changes found in the patch.", _FORMAT_HINT)
    return [_strip_git_prefixes(f) for f in files]


_FORMAT_HINT = (
    "Send a unified diff: '--- a/path' and '+++ b/path' lines, then '@@ -l,n +l,n @@' hunks "
    "(as git diff or diff -u print them)."
)


def _continues(current: FilePatch, old: str | None, new: str | None) -> bool:
    """Whether ---/+++ lines belong to the open ``diff --git`` section (same paths, no hunk yet);
    otherwise they start a new file (a rename-only or empty-file git section has none)."""
    if not current.git or current.hunks or current.headers_seen:
        return False
    return (old, new) == (current.old_path, current.new_path)


def _git_file(line: str) -> FilePatch:
    found = _GIT_HEADER.match(line)
    if found is None:
        raise InvalidInput(f"Cannot read the file names in {line!r}.", _FORMAT_HINT)
    return FilePatch("a/" + found.group(1), "b/" + found.group(2), git=True)


def _git_extended_header(line: str, current: FilePatch) -> None:
    if line.startswith("new file mode "):
        current.old_path = None
        current.new_mode = _mode(line)
    elif line.startswith("deleted file mode "):
        current.new_path = None
    elif line.startswith("new mode "):
        current.new_mode = _mode(line)
    elif line.startswith("rename from "):
        current.old_path = "a/" + line[len("rename from ") :]
    elif line.startswith("rename to "):
        current.new_path = "b/" + line[len("rename to ") :]
    elif line.startswith(("GIT binary patch", "Binary files ")):
        current.binary = True
    elif line.startswith(("copy from ", "copy to ")):
        raise InvalidInput("Copies in patches are not supported.", "Create the copy with write_file.")


def _mode(line: str) -> int:
    return int(line.rsplit(" ", 1)[1][-3:], 8)


def _header_path(line: str) -> str | None:
    path = line[4:].split("\t", 1)[0].rstrip()
    if path.startswith('"') and path.endswith('"') and len(path) > 1:
        path = path[1:-1]
    return None if path == DEV_NULL else path


def _strip_git_prefixes(item: FilePatch) -> FilePatch:
    old_ok = item.old_path is None or item.old_path.startswith("a/")
    new_ok = item.new_path is None or item.new_path.startswith("b/")
    if (item.git or (old_ok and new_ok)) and (item.old_path or item.new_path):
        item.git = True
        item.old_path = item.old_path[2:] if item.old_path and old_ok else item.old_path
        item.new_path = item.new_path[2:] if item.new_path and new_ok else item.new_path
    return item


def _read_hunk(lines: list[str], i: int, current: FilePatch) -> int:
    number = len(current.hunks) + 1
    found = _HUNK.match(lines[i])
    where = f"{current.label}, hunk {number} ({lines[i].strip()!r})"
    if found is None:
        raise InvalidInput(f"{where}: malformed hunk header.", "It must look like '@@ -12,7 +12,8 @@'.")
    o_start, o_count, n_start, n_count = found.groups()
    hunk = Hunk(
        header=lines[i].strip(),
        old_start=int(o_start),
        old_count=1 if o_count is None else int(o_count),
        new_start=int(n_start),
        new_count=1 if n_count is None else int(n_count),
    )
    old_left, new_left = hunk.old_count, hunk.new_count
    i += 1
    while old_left > 0 or new_left > 0:
        if i >= len(lines) or lines[i].startswith(("@@", "diff --git ")):
            raise InvalidInput(
                f"{where}: the body is shorter than its header says "
                f"({old_left} old and {new_left} new lines missing).",
                "Fix the line counts in the @@ header, or regenerate the diff.",
            )
        line = lines[i]
        tag, text = (line[0], line[1:]) if line else (" ", "")
        if tag == "\\":
            _mark_no_eol(hunk)
        elif tag in " -+":
            hunk.lines.append((tag, text))
            old_left -= tag != "+"
            new_left -= tag != "-"
            if old_left < 0 or new_left < 0:
                raise InvalidInput(f"{where}: more lines than the header counts.", "Fix the @@ counts.")
        else:
            raise InvalidInput(
                f"{where}: line {line!r} does not start with ' ', '-' or '+'.",
                "Every hunk line needs its one-character prefix.",
            )
        i += 1
    if i < len(lines) and lines[i].startswith("\\"):
        _mark_no_eol(hunk)
        i += 1
    current.hunks.append(hunk)
    return i


def _mark_no_eol(hunk: Hunk) -> None:
    last_tag = hunk.lines[-1][0] if hunk.lines else " "
    if last_tag in " -":
        hunk.old_no_eol = True
    if last_tag in " +":
        hunk.new_no_eol = True
