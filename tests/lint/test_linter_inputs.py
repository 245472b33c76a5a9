"""Only regular files under the source size cap reach a linter, and every linter child runs under
a memory limit: a module cannot hang ``check_module`` or take the machine's memory."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from odoo_tools.lint._common import LINTER_MEMORY_BYTES, PYTHON, run_linter
from odoo_tools.process import run_process
from odoo_tools.storage import MAX_SOURCE_BYTES

pytestmark = pytest.mark.anyio


async def _check(server_for: Callable[..., Any], addons: Path, module: str) -> dict[str, Any]:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool(
            "check_module", {"module": module, "checks": ["pylint", "flake8", "oca-hooks"]}
        )
    assert not result.is_error
    data: dict[str, Any] | None = result.structured_content
    assert data is not None
    return data


async def test_a_named_pipe_called_x_py_does_not_hang_check_module(
    server_for: Callable[..., Any], addons: Path
) -> None:
    os.mkfifo(addons / "library_loan" / "x.py")
    started = time.monotonic()
    data = await _check(server_for, addons, "library_loan")
    assert time.monotonic() - started < 60  # the linters used to wait on the pipe until their timeout
    found = [(f["code"], f["path"], f["severity"]) for f in data["findings"]]
    assert ("not-a-regular-file", "library_loan/x.py", "error") in found
    assert data["passed"] is False
    assert not [f for f in data["findings"] if f["code"] == "linter-crashed"]


async def test_a_link_out_of_the_addons_root_never_reaches_a_linter(
    server_for: Callable[..., Any], addons: Path, tmp_path: Path
) -> None:
    """Linters follow a module's links: ruff linted (and named) a .py outside the repository, the
    OCA hooks read an XML there. The index and the file tools refuse such a link; so do the
    linters' inputs."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.py").write_text('"sk-live-outside-secret"\n', encoding="utf-8")
    (addons / "library_loan" / "models" / "leak.py").symlink_to(outside / "secret.py")
    data = await _check(server_for, addons, "library_loan")
    assert str(outside) not in str(data)
    found = [(f["code"], f["path"], f["severity"]) for f in data["findings"]]
    assert ("link-outside-root", "library_loan/models/leak.py", "error") in found
    assert data["passed"] is False


async def test_a_sparse_file_over_the_cap_never_reaches_a_linter(
    server_for: Callable[..., Any], addons: Path
) -> None:
    huge = addons / "library_loan" / "models" / "huge.py"
    with huge.open("wb") as handle:  # 512 MiB on paper, a few KB on disk
        handle.truncate(512 << 20)
        handle.seek(0)
        handle.write(b"import os\n")
    data = await _check(server_for, addons, "library_loan")
    codes = {(f["code"], f["path"]) for f in data["findings"]}
    assert ("file-too-large", "library_loan/models/huge.py") in codes
    assert str(MAX_SOURCE_BYTES) in next(
        f["message"] for f in data["findings"] if f["code"] == "file-too-large"
    )
    linted = [f for f in data["findings"] if f["source"] in ("pylint", "flake8", "ruff", "oca-hooks")]
    assert not [f for f in linted if "huge" in f["path"]]  # left out; the rest of the module is linted


async def test_a_pipe_in_a_module_does_not_hide_the_other_files_findings(
    server_for: Callable[..., Any], addons: Path
) -> None:
    """A FIFO at models/x.py made the whole module 'not checked: no linter was run', hiding a real
    syntax error in another file: the odd file is a finding and left out, the rest is linted."""
    os.mkfifo(addons / "library_loan" / "models" / "x.py")
    (addons / "library_loan" / "models" / "broken.py").write_text("def f(:\n    pass\n")
    started = time.monotonic()
    data = await _check(server_for, addons, "library_loan")
    assert time.monotonic() - started < 60
    found = {(f["source"], f["code"], f["path"]) for f in data["findings"]}
    assert ("lint", "not-a-regular-file", "library_loan/models/x.py") in found
    syntax = {(source, path) for source, code, path in found if code in ("E0001", "E999", "invalid-syntax")}
    assert ("pylint", "library_loan/models/broken.py") in syntax, found
    assert not [f for f in data["findings"] if f["code"] == "linter-crashed"]


async def test_linter_children_run_under_a_memory_limit() -> None:
    grab = "import sys\ntry:\n    b = bytearray(1 << 30)\nexcept MemoryError:\n    sys.exit(7)\n"
    result = await run_process([sys.executable, "-c", grab], memory_limit=512 << 20, timeout=60)
    assert result.returncode == 7
    unlimited = await run_process([sys.executable, "-c", grab], timeout=60)
    assert unlimited.returncode == 0
    over = grab.replace("1 << 30", f"{LINTER_MEMORY_BYTES} + (1 << 30)")
    linter = await run_linter([*PYTHON, "-c", over])  # what pylint, flake8, ruff and the hooks go through
    assert linter.returncode == 7
