"""Live progress from Odoo's output: "Loading module <name> (k/N)" lines, one at a time."""

from __future__ import annotations

import re

from odoo_tools.odoo_log._records import RECORD_RE

LOADING_MODULE_RE = re.compile(r"^Loading module (?P<module>[\w-]+) \((?P<k>\d+)/(?P<n>\d+)\)")
LOADING_N_RE = re.compile(r"^loading (?P<n>\d+) modules\.\.\.")


class ProgressTracker:
    """Feed raw output lines; ``feed`` returns ``(k, N)`` when the progress moved, else None.

    Odoo prints ``loading N modules...`` before a graph and ``Loading module X (k/N)`` for each
    module it installs or updates (modules already up to date are only counted in N).
    """

    def __init__(self) -> None:
        self.current: tuple[int, int] | None = None
        self.module = ""

    def feed(self, line: str) -> tuple[int, int] | None:
        record = RECORD_RE.match(line.rstrip())
        if record is None or record["logger"] != "odoo.modules.loading":
            return None
        message = record["message"].rstrip()
        if match := LOADING_MODULE_RE.match(message):
            self.module = match["module"]
            return self._move(int(match["k"]), int(match["n"]))
        if match := LOADING_N_RE.match(message):
            return self._move(0, int(match["n"]))
        return None

    def _move(self, k: int, n: int) -> tuple[int, int] | None:
        if self.current == (k, n):
            return None
        self.current = (k, n)
        return self.current
