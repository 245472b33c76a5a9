"""Which warm worker serves a validation, and running odoo-bin through it or cold.

A runner keeps one worker: the one for the key of its latest run (the template's modules, the
odoo-bin, the interpreter, the static options, the environment). A run whose key differs starts
a new worker (the old one finishes what it runs, then ends); a worker that is stale, dead or
crashed is replaced for the next run while this one runs cold. The answer says which path ran
(``ValidationResult.warm``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from odoo_tools.addons import AddonSet
from odoo_tools.runs._externals import interpreter_of
from odoo_tools.runs._odoo_bin import OdooBin, OdooRun
from odoo_tools.runs._result import WarmUse
from odoo_tools.runs._template_info import TemplateInfo
from odoo_tools.runs._warm import WarmCrashed, WarmKey, WarmUnavailable, WarmWorker, static_args

__all__ = ["WarmCrashed", "WarmRuns"]


class WarmRuns:
    """The warm path of one runner."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.worker: WarmWorker | None = None

    def worker_for(
        self, odoo: OdooBin, argv: Sequence[str], env: Mapping[str, str], record: TemplateInfo | None,
        addons: AddonSet, core: Iterable[str],
    ) -> tuple[WarmWorker | None, WarmUse]:  # fmt: skip
        """The worker for a run of this template (started now if needed), or why none."""
        interpreter = interpreter_of(odoo.path, odoo.python)
        if interpreter is None:
            return None, WarmUse(status="cold", note="no Python interpreter to run the worker with")
        if record is None:
            return None, WarmUse(status="cold", note="the template's record is unreadable")
        held = record.held if record.held is not None else record.modules
        preload = sorted(held, key=lambda m: (len(addons.closure([m])) if m in addons else 0, m))
        key = WarmKey(
            interpreter=interpreter,
            odoo_bin=str(odoo.path),
            static_args=static_args(argv[len(odoo.command()) :]),
            preload=tuple(preload),
            manifests=tuple(sorted({*core, *held})),
            env=tuple(sorted(env.items())),
        )
        current = self.worker
        if current is not None and current.key == key and current.alive() and not current.retired:
            return current, WarmUse(status="warm")
        note = "worker started"
        if current is not None:
            ended = current.process.poll()
            why = f"it had ended (exit code {ended})" if ended is not None else "its key changed"
            note = f"worker replaced: {why}"
            self.retire(current)
        self.worker = WarmWorker(key, self.log_dir)
        return self.worker, WarmUse(status="warm", note=note)

    async def run(
        self, worker: WarmWorker, use: WarmUse, argv: Sequence[str], command_length: int,
        timeout: float | None, on_line: Callable[[str], None],
    ) -> OdooRun | None:  # fmt: skip
        """odoo-bin as a fork of ``worker``; None (and ``use`` says why) when it must run cold."""
        try:
            return await worker.run(argv, argv[command_length:], timeout=timeout, on_line=on_line)
        except WarmUnavailable as exc:
            self.retire(worker)
            use.status, use.note = "cold", str(exc)
            return None
        except WarmCrashed:
            self.retire(worker)
            raise

    def retire(self, worker: WarmWorker) -> None:
        """No new run for ``worker``; it ends once it runs nothing."""
        worker.retired = True
        if not worker.active:
            worker.close()
        if self.worker is worker:
            self.worker = None

    def close(self) -> None:
        if self.worker is not None:
            self.retire(self.worker)
