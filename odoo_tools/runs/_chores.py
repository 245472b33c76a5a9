"""Database chores off a run's critical path, and what one run carries while it goes."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.runs._result import Action, WarmUse
from odoo_tools.runs._warm import WarmWorker

ProgressFn = Callable[[int, int, str], None]
log = logging.getLogger("odoo_tools.runs._validate")
KEEP_LOGS = 200


@dataclass
class RunState:
    """State of one validation while it runs."""

    action: Action
    modules: list[str]
    database: str
    demo: bool
    on_progress: ProgressFn | None
    log_parts: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    worker: WarmWorker | None = None  # the warm worker for the modules' runs, if any
    warm: WarmUse = field(default_factory=WarmUse)

    def spent(self, phase: str, since: float) -> None:
        self.timings[phase] = round(self.timings.get(phase, 0.0) + time.monotonic() - since, 3)

    def progress(self, k: int, n: int, message: str) -> None:
        if self.on_progress is not None:
            self.on_progress(k, n, message)

    def fall_back(self, why: str) -> None:
        """The warm worker failed this validation: the rest runs cold, and the log says why."""
        self.worker = None
        self.warm = WarmUse(status="cold", note=why)
        self.log_parts.append(f"# assista-odoo: {why}\n")

    def write_log(self, log_dir: Path) -> Path:
        """The run's whole log in ``log_dir``, keeping the newest KEEP_LOGS logs."""
        log_dir.mkdir(parents=True, exist_ok=True)
        path = log_dir / f"{self.database}.log"
        path.write_text("".join(self.log_parts), encoding="utf-8")
        old = sorted(log_dir.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP_LOGS:]
        for stale in old:
            stale.unlink(missing_ok=True)
        return path


class Chores:
    """Database chores off the critical path: preparing the next spare clone while odoo-bin
    works, dropping a finished run's database (PostgreSQL checkpoints on DROP) after the answer.
    The threads are not daemons: a CLI process finishes them before exiting."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []

    def start(self, what: str, work: Callable[[], object]) -> None:
        def guarded() -> None:
            try:
                work()
            except Exception as exc:
                log.warning("background %s failed: %s", what, exc)

        thread = threading.Thread(target=guarded, name=f"assista-bg-{what}")
        thread.start()
        # A long-lived server never waits: forget finished chores here.
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]

    def wait(self, only: str = "") -> None:
        """Wait for the chores whose name starts with ``only`` ("drop-", "spare-"), or all."""
        for thread in [t for t in self._threads if t.name.startswith(f"assista-bg-{only}")]:
            thread.join()
            self._threads.remove(thread)
