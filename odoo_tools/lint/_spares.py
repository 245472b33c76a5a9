"""Linter processes started before they are needed (``assista-odoo check`` starts them first
thing), so a re-check after an edit does not wait for pylint's ~0.7 s start after working out
what changed: the first batch of pylint (or of the OCA hooks) goes to the spare, which has
loaded its imports meanwhile. A spare nobody takes is ended at the end of the run (or when this
process exits: its stdin closes). Light on purpose: imported before the rest of the package.
"""

from __future__ import annotations

import atexit
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from odoo_tools.lint._digest_store import linters_for_changes
from odoo_tools.lint._env import LINTER_MEMORY_BYTES, PYTHON, linter_env
from odoo_tools.process import EarlyProcess, ProcessResult

WORKER = Path(__file__).resolve().with_name("_spare_worker.py")
TOOLS = ("pylint", "oca-hooks")
_spares: dict[str, EarlyProcess] = {}


def start_spares(tools: Iterable[str], *, cache_dir: Path | None = None, busy_too: bool = False) -> None:
    """Start the ``tools`` among ``TOOLS`` that files changed since the last run in ``cache_dir``
    need (a process that will be used costs nothing extra, even on a busy machine); when that
    cannot be told, all of them, if a core is idle (or ``busy_too``)."""
    needed = linters_for_changes(tools, cache_dir)
    if needed is not None:
        tools, busy_too = needed, True
    if not (busy_too or idle_core()):
        return
    for tool in tools:
        if tool in TOOLS and tool not in _spares:
            # Started from the temp folder (nothing of the project is importable: -P); it moves to
            # the linters' private folder with its request.
            argv = [*PYTHON, str(WORKER), tool]
            _spares[tool] = EarlyProcess(
                argv, cwd=tempfile.gettempdir(), env=linter_env(), memory_limit=LINTER_MEMORY_BYTES
            )
    atexit.register(discard_spares)


def idle_core() -> bool:
    """Whether a core sits idle (1-minute load average + this process <= cores). On a busy
    machine an early process slows the run more than its head start saves (measured on 2 busy
    cores, load ~6: warm and unchanged 1.0 -> 1.5 s wall, CPU 0.6 -> 1.4 s)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        return os.getloadavg()[0] + 1 <= cores
    except OSError:  # no load average on this platform: do not guess
        return False


def take_spare(tool: str) -> EarlyProcess | None:
    return _spares.pop(tool, None)


async def run_on_spare(spare: EarlyProcess, argv: list[str], timeout: float) -> ProcessResult:
    """``argv``: the linter's own arguments (what follows ``-m pylint``)."""
    from odoo_tools.lint._safe_config import private_dir

    request = json.dumps({"argv": argv, "cwd": str(private_dir())}) + "\n"
    return await spare.finish(request.encode(), timeout)


def discard_spares(keep: Iterable[str] = ()) -> None:
    """End the spares not in ``keep`` (those no batch of this run will take)."""
    for tool in [t for t in _spares if t not in set(keep)]:
        _spares.pop(tool).discard()
