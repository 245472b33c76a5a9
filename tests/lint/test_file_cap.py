"""Every reader of a module's files honours the source cap (issue 35): a 768 MiB data file (a
sparse file here: a few KB on disk) is not read whole by any pass, and the other files of the
module are still checked."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from odoo_tools.storage import MAX_SOURCE_BYTES

BIG = 768 << 20


def _cli(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update({"CI": "true", "ASSISTA_CACHE_DIR": str(cwd / "cache"), "ASSISTA_HOME": str(cwd / "home")})
    try:
        return subprocess.run(
            [sys.executable, "-m", "assista_mcp", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"assista-odoo {' '.join(args)} took over {timeout} s: a pass read the big file")


def _module(root: Path) -> Path:
    module = root / "addons" / "bulky"
    (module / "views").mkdir(parents=True)
    (module / "__init__.py").write_text("")
    (module / "__manifest__.py").write_text(
        "{'name': 'bulky', 'version': '17.0.1.0.0', 'depends': ['base'], 'license': 'LGPL-3',\n"
        " 'data': ['views/big.xml', 'views/small.xml']}\n"
    )
    big = module / "views" / "big.xml"
    big.write_text(
        '<odoo><record id="v" model="ir.ui.view"><field name="model">res.partner</field>'
        '<field name="arch" type="xml"><form><field name="name"/></form></field></record>\n'
    )
    os.truncate(big, BIG)  # sparse: nothing more is written to disk
    (module / "views" / "small.xml").write_text(
        '<odoo>\n<record id="w" model="no.such.model">\n<field name="name">w</field>\n</record>\n</odoo>\n'
    )
    return module


def test_check_reads_no_data_file_over_the_cap(tmp_path: Path) -> None:
    assert BIG > MAX_SOURCE_BYTES
    module = _module(tmp_path)
    started = time.monotonic()
    result = _cli(["check", "--addons-path", str(module.parent), "--checks", "static"], tmp_path, 60)
    seconds = time.monotonic() - started
    assert "Traceback" not in result.stderr, result.stderr
    assert "bulky/views/big.xml" in result.stdout and "file-too-large" in result.stdout
    # The other data file is still checked: its unknown model is reported at its line.
    assert "bulky/views/small.xml:2: error [static record-model-unknown]" in result.stdout, result.stdout
    assert result.returncode == 1
    assert seconds < 30, seconds
