"""Files a repository may hold that ``check`` reads besides the modules: a committed baseline and
an odoo.conf. A pipe in their place blocked check for ever (a plain open waits for a writer); a
huge one was loaded whole. Each is now a usage error naming the file (exit 2), read through the
one capped, non-blocking reader."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.lint.conftest import FIXTURE_ADDONS, run_cli


@pytest.mark.parametrize("flag", ["--baseline", "--odoo-config"])
@pytest.mark.parametrize("kind", ["pipe", "huge"])
def test_a_pipe_or_a_huge_file_given_to_check_is_a_usage_error(tmp_path: Path, flag: str, kind: str) -> None:
    shutil.copytree(FIXTURE_ADDONS / "library_base", tmp_path / "addons" / "library_base")
    given = tmp_path / "given"
    if kind == "pipe":
        os.mkfifo(given)
    else:
        given.write_text("[options]\n")
        os.truncate(given, 768 << 20)  # sparse: costs no disk
    done = run_cli(
        ["check", "addons", "--checks", "static", flag, "given"], cwd=tmp_path, cache=tmp_path / "cache"
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "given" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert ("not a regular file" if kind == "pipe" else "larger than") in done.stderr, done.stderr
