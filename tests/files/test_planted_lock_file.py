"""The lock files live in the platform's user cache folder (the same for every process, so two
servers with different cache dirs see each other's locks), in ``locks/``, which is checked to be
this user's alone on every use. A lock file another account made there before the folder was
narrowed (left open under umask 0) and keeps flock-ed blocked every write of that path for the
wait (60 s) and then failed it: such a file is removed and a lock file of ours taken instead."""

from __future__ import annotations

import fcntl
import os
import stat
import time
from pathlib import Path

import pytest

from odoo_tools.files import path_locks
from odoo_tools.files._locks import lock_file, lock_folder


def test_a_lock_file_another_account_holds_blocks_no_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a file of another account needs root")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    target = tmp_path / "addons" / "mod" / "models.py"
    folder = lock_folder()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    planted = lock_file(target)
    fd = os.open(planted, os.O_RDWR | os.O_CREAT, 0o666)
    os.fchown(fd, 4242, 4242)
    fcntl.flock(fd, fcntl.LOCK_EX)  # held, as its maker would
    try:
        started = time.monotonic()
        with path_locks(target):
            assert os.stat(lock_file(target)).st_uid == os.geteuid()
        assert time.monotonic() - started < 5
    finally:
        os.close(fd)
