"""Writers in two processes lose no update: the path locks hold across processes, not only threads.

Two hosts (or the agent and an editor's server) each run their own ``assista-odoo serve``; each
edit reads the file, changes its own line and writes the file back. Without a lock both processes
see, two processes racing lose updates within a few dozen edits (measured: 150 edits each lost
updates in every run with the thread-only lock).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from tests.server.conftest import stdio_params

EDITS = 150
HAMMER = """
import sys, time
from pathlib import Path
from odoo_tools.errors import AssistaError
from odoo_tools.files import Edit, edit_file
from odoo_tools.workspace import Workspace

root, name, edits, go = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
ws = Workspace([root])
while not go.exists():
    time.sleep(0.001)
for n in range(edits):
    try:
        edit_file(ws, "shared.py", [Edit(f"{name} = {n}\\n", f"{name} = {n + 1}\\n")])
    except AssistaError as exc:  # our line is not what we wrote last: the other process lost it
        sys.exit(f"{name}: edit {n} lost: {exc}")
"""


def test_two_processes_editing_one_file_lose_no_update(tmp_path: Path) -> None:
    root = tmp_path / "addons"
    root.mkdir()
    target = root / "shared.py"
    target.write_text("a = 0\nb = 0\n", encoding="utf-8")
    go = tmp_path / "go"
    argv = [[sys.executable, "-c", HAMMER, str(root), name, str(EDITS), str(go)] for name in ("a", "b")]
    procs = [subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for a in argv]
    time.sleep(0.5)  # both have imported what they need
    go.touch()
    outcomes = [(proc.wait(timeout=120), proc.stderr.read() if proc.stderr else "") for proc in procs]
    assert outcomes == [(0, ""), (0, "")]
    assert target.read_text(encoding="utf-8") == f"a = {EDITS}\nb = {EDITS}\n"


@pytest.mark.anyio
async def test_two_stdio_servers_editing_one_file_lose_no_update(addons: Path, tmp_path: Path) -> None:
    target = addons / "shared.py"
    target.write_text("a = 0\nb = 0\n", encoding="utf-8")
    edits = 40

    async def host(name: str) -> None:
        (tmp_path / name).mkdir()
        params = stdio_params(addons, tmp_path / name)
        errlog = (tmp_path / f"{name}.log").open("w")
        with errlog:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as client:
                for n in range(edits):
                    edit = {"old_text": f"{name} = {n}\n", "new_text": f"{name} = {n + 1}\n"}
                    result = await client.call_tool("edit_file", {"path": "shared.py", "edits": [edit]})
                    assert not result.is_error, f"{name}: edit {n}: {result.content}"

    async with anyio.create_task_group() as group:
        group.start_soon(host, "a")
        group.start_soon(host, "b")
    assert target.read_text(encoding="utf-8") == f"a = {edits}\nb = {edits}\n"
