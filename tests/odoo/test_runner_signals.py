"""Issue I: SIGTERM or SIGINT to a plain script that uses the runner leaves no process and no database.

The script calls ``OdooRunner.validate_sync`` (no CLI around it) with the stand-in odoo-bin paced
slowly; once the stand-in runs against the run's database the script gets the signal. Before the fix
SIGTERM killed Python on the spot: odoo-bin (in its own session) went on and the database stayed.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import REPO, processes_mentioning

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SCRIPT = """
import os, signal, sys
from pathlib import Path
from odoo_tools.runs import OdooRunner, RunnerConfig
from odoo_tools.runs._pg import PgParams

addons, cache, odoo_bin, prefix, use_cache, sigint = sys.argv[1:]
# a job started with `&` or nohup inherits SIGINT ignored; else Ctrl-C raises KeyboardInterrupt
signal.signal(signal.SIGINT, signal.SIG_IGN if sigint == "ignored" else signal.default_int_handler)
config = RunnerConfig(
    addons_paths=[Path(addons)], cache_dir=Path(cache), pg=PgParams.resolve(), odoo_bin=Path(odoo_bin),
    odoo_python=sys.executable, db_prefix=prefix, timeout=300.0,
)
OdooRunner(config).validate_sync("install", ["library_base"], use_cache=use_cache == "1")
print("finished without the signal", flush=True)
"""


def wait_until(condition: Callable[[], bool], seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.1)


CASES = [  # signal sent, use the template cache (the signal then lands in its build), SIGINT's handler
    (signal.SIGTERM, False, "default"),
    (signal.SIGINT, False, "default"),
    (signal.SIGTERM, True, "default"),
    (signal.SIGINT, True, "default"),
    (signal.SIGTERM, False, "ignored"),  # SIGTERM as SIGINT must not become ignored too
]


@pytest.mark.parametrize(("sig", "use_cache", "sigint"), CASES, ids=lambda v: str(getattr(v, "name", v)))
def test_a_signal_to_a_script_using_the_runner_cleans_up(
    sig: signal.Signals, use_cache: bool, sigint: str, tmp_path: Path, pg: Pg, stub_odoo_bin: Path
) -> None:
    slow = tmp_path / "slow-odoo" / "odoo-bin"
    slow.parent.mkdir()
    slow.write_text(
        "import os, runpy, sys\n"
        "os.environ['ASSISTA_STUB_DELAY'] = '0.4'\n"
        f"sys.argv[0] = {str(stub_odoo_bin)!r}\n"
        f"runpy.run_path({str(stub_odoo_bin)!r}, run_name='__main__')\n"
    )
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    addons = REPO / "fixtures" / "addons"
    argv = [sys.executable, str(script), str(addons), str(tmp_path / "cache"), str(slow), pg.prefix]
    proc = subprocess.Popen([*argv, "1" if use_cache else "0", sigint], cwd=tmp_path, stdout=subprocess.PIPE)
    try:
        # odoo-bin runs against one of our databases (the run's, or the template's scratch one)
        wait_until(lambda: any(p != proc.pid for p in processes_mentioning(pg.prefix)))
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=60)
        assert b"finished without the signal" not in out
        wait_until(lambda: not processes_mentioning(pg.prefix), 30)
        assert pg.list_ours() == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
