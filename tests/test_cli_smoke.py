from __future__ import annotations

import subprocess
import sys


def test_help_lists_serve() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "assista_mcp", "--help"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0
    assert "serve" in out.stdout
