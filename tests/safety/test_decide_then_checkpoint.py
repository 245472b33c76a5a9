"""A call the mode or the user refuses reads nothing: the checkpoint is taken after the decision.

In --mode read-only, a model's ``migrate_module(write=true)`` had every file of the module read and
stored in the checkpoint store before it was denied: a FIFO in the module froze the agent, a big
file was copied for nothing (issue 35, item 11). Through the real CLI and a scripted model.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from tests.safety.conftest import RunAgent, StartServer, call

MARK = b"planted-for-the-checkpoint-store "


def test_read_only_mode_denies_migrate_module_write_before_reading_the_module(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    module = addons / "library_base"
    (module / "data").mkdir(exist_ok=True)
    (module / "data" / "big.csv").write_bytes(MARK * 200_000)  # 6.6 MB
    fifo = module / "data" / "pipe.csv"
    os.mkfifo(fifo)
    stop, opened = threading.Event(), threading.Event()

    def watchdog() -> None:
        """A writer's open succeeds only while a reader waits on the FIFO: then something read it
        (and the writer's close lets that reader go on instead of hanging the test)."""
        while not stop.wait(0.05):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                continue  # ENXIO: nobody reads it
            opened.set()

    threading.Thread(target=watchdog, daemon=True).start()
    arguments = {"module": "library_base", "to_series": "18.0", "write": True}
    server = model_server([{"tool_calls": [call("m1", "migrate_module", arguments)]}, {"text": "done"}])
    try:
        _, events, _ = run_agent(server, addons, "migrate it", "--mode", "read-only", "--no-validate")
    finally:
        stop.set()
    assert not opened.is_set(), "the denied call's checkpoint opened the module's FIFO"
    [result] = [e for e in events if e["type"] == "tool_result" and e.get("tool_call_id") == "m1"]
    assert result["is_error"] and "read-only" in result["text"]
    stored = sum(p.stat().st_size for p in (addons.parent / "home").rglob("*") if p.is_file())
    assert stored < 1_000_000  # the 6.6 MB file was not copied
