"""Read a Python traceback out of log lines: its frames and the exception that ended it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from odoo_tools.odoo_log._paths import AddonPath, PathMapper
from odoo_tools.odoo_log._records import TRACEBACK_HEAD

FRAME_RE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?$')
EXCEPTION_RE = re.compile(
    r"^(?P<type>[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Failure))(?:: ?(?P<msg>.*))?$"
)
CHAINING = (
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
)


@dataclass
class Frame:
    file: str
    line: int
    func: str  # "" for the pseudo-frame of a SyntaxError
    code: str = ""
    addon: AddonPath | None = None

    def render(self) -> str:
        where = f'  File "{self.file}", line {self.line}' + (f", in {self.func}" if self.func else "")
        return f"{where}\n    {self.code}" if self.code else where


@dataclass
class Traceback:
    frames: list[Frame] = field(default_factory=list)
    exc_type: str = ""
    exc_lines: list[str] = field(default_factory=list)  # the exception message, all its lines
    causes: list[Traceback] = field(default_factory=list)  # chained exceptions, oldest first

    @property
    def headline(self) -> str:
        first = self.exc_lines[0].strip() if self.exc_lines else ""
        return f"{self.exc_short}: {first}" if self.exc_type else first

    @property
    def exc_short(self) -> str:
        return self.exc_type.rsplit(".", 1)[-1]

    @property
    def exc_message(self) -> str:
        return "\n".join(self.exc_lines).strip()

    def addon_frames(self) -> list[Frame]:
        return [f for f in self.frames if f.addon is not None]

    def trimmed(self, max_other_frames: int = 2) -> str:
        """The addon's own frames first, then the last few framework frames, then the error."""
        own = self.addon_frames()
        others = [f for f in self.frames if f.addon is None][-max_other_frames:]
        parts = [f.render() for f in own]
        if others:
            parts.append("  ... framework frames:")
            parts.extend(f.render() for f in others)
        head = f"{self.exc_type}: " if self.exc_type else ""
        parts.append(head + "\n".join(self.exc_lines[:12]).strip())
        return "\n".join(parts).strip()


def find_traceback(lines: list[str], mapper: PathMapper) -> Traceback | None:
    """Parse the last traceback in ``lines`` (the one finally raised), with its chained causes."""
    starts = [i for i, line in enumerate(lines) if line.startswith(TRACEBACK_HEAD)]
    if not starts:
        return None
    segments = [
        parse_traceback(lines[start + 1 : end], mapper)
        for start, end in zip(starts, [*starts[1:], None], strict=True)
    ]
    final = segments[-1]
    final.causes = segments[:-1]
    return final


def parse_traceback(body: list[str], mapper: PathMapper) -> Traceback:
    tb = Traceback()
    i = 0
    while i < len(body):
        line = body[i]
        match = FRAME_RE.match(line)
        if match:
            frame = Frame(match["file"], int(match["line"]), match["func"] or "")
            frame.addon = mapper.map(frame.file)
            code = body[i + 1] if i + 1 < len(body) else ""
            if code.startswith("    ") and not FRAME_RE.match(code):
                frame.code = code.strip()
                i += 1
            tb.frames.append(frame)
        elif line.strip() and not line.startswith(" ") and tb.frames:
            _read_exception(tb, body[i:])
            break
        i += 1
    return tb


def _read_exception(tb: Traceback, rest: list[str]) -> None:
    first = rest[0].strip()
    match = EXCEPTION_RE.match(first) or re.match(r"^(?P<type>[A-Za-z_][\w.]*): (?P<msg>.*)$", first)
    lines = [match["msg"] or ""] if match else [first]
    tb.exc_type = match["type"] if match else ""
    for line in rest[1:]:
        if line.strip() in CHAINING or line.startswith(TRACEBACK_HEAD):
            break
        lines.append(line.rstrip())
    while lines and not lines[-1].strip():
        lines.pop()
    tb.exc_lines = lines
