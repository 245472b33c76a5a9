"""Split an Odoo log into records: a prefixed first line plus its unprefixed continuation lines.

Odoo writes ``YYYY-MM-DD HH:MM:SS,mmm <pid> <LEVEL> <db or ?> <logger>: <message> `` (with a
trailing space); tracebacks and multi-line messages follow on lines without that prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

RECORD_RE = re.compile(
    r"^(?P<time>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}) (?P<pid>\d+) "
    r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL|RUNBOT|TEST|\w+) (?P<db>\S+) (?P<logger>[^\s:]+): "
    r"?(?P<message>.*)$"
)
TRACEBACK_HEAD = "Traceback (most recent call last):"


@dataclass
class LogRecord:
    """One log record. ``lines`` holds the first message line and every continuation line."""

    time: str
    pid: int
    level: str
    db: str
    logger: str
    lines: list[str] = field(default_factory=list)
    index: int = 0  # position in the log, for a stable order

    @property
    def message(self) -> str:
        return self.lines[0] if self.lines else ""

    @property
    def text(self) -> str:
        return "\n".join(self.lines).rstrip()

    @property
    def has_traceback(self) -> bool:
        return any(line.startswith(TRACEBACK_HEAD) for line in self.lines)


@dataclass
class SplitLog:
    records: list[LogRecord]
    stray_lines: list[str]  # text before the first record or printed outside logging (stderr)


def split_records(text: str) -> SplitLog:
    """Group lines into records; lines before the first record are kept as ``stray_lines``."""
    records: list[LogRecord] = []
    stray: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        match = RECORD_RE.match(line)
        if match:
            records.append(
                LogRecord(
                    time=match["time"],
                    pid=int(match["pid"]),
                    level=match["level"],
                    db=match["db"],
                    logger=match["logger"],
                    lines=[match["message"].rstrip()],
                    index=len(records),
                )
            )
        elif records and not _is_recorder_note(line):
            records[-1].lines.append(line.rstrip())
        elif line.strip():
            stray.append(line)
    return SplitLog(records=records, stray_lines=stray)


def _is_recorder_note(line: str) -> bool:
    """Recorders (fixture logs, odoo_validate's saved logs) frame Odoo's output with ``# `` lines."""
    return line.startswith(("# cmd:", "# exit_code=", "# assista-odoo"))
