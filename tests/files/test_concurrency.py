"""Writes to one file are serialized: 20 threads editing distinct lines of one file lose nothing."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from odoo_tools.files import Edit, edit_file
from odoo_tools.workspace import Workspace

WORKERS = 20


def _seed(addons: Path) -> Path:
    target = addons / "shared.py"
    target.write_text("".join(f"value_{n} = 0\n" for n in range(WORKERS)), encoding="utf-8")
    return target


def test_twenty_threads_editing_one_file_lose_no_update(ws: Workspace, addons: Path) -> None:
    target = _seed(addons)
    start = threading.Barrier(WORKERS)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            start.wait()
            edit_file(ws, "shared.py", [Edit(f"value_{n} = 0\n", f"value_{n} = {n + 100}\n")])
        except BaseException as exc:  # reported below; a thread must not swallow it
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert target.read_text(encoding="utf-8") == "".join(f"value_{n} = {n + 100}\n" for n in range(WORKERS))


@pytest.mark.anyio
async def test_concurrent_mcp_edits_lose_no_update(server_for: Any, addons: Path) -> None:
    target = _seed(addons)
    server = server_for(addons)

    async def edit(client: Client, n: int) -> None:
        result = await client.call_tool(
            "edit_file",
            {
                "path": "shared.py",
                "edits": [{"old_text": f"value_{n} = 0\n", "new_text": f"value_{n} = {n}!\n"}],
            },
        )
        assert not result.is_error, result

    async with Client(server) as client, anyio.create_task_group() as group:
        for n in range(WORKERS):
            group.start_soon(edit, client, n)
    assert target.read_text(encoding="utf-8") == "".join(f"value_{n} = {n}!\n" for n in range(WORKERS))


def test_the_lock_registry_keeps_only_locks_in_use(tmp_path: Path) -> None:
    from odoo_tools.files import _locks, path_locks

    for i in range(500):
        with path_locks(tmp_path / f"f{i}", tmp_path / "shared"):
            assert _locks.registered() >= 2
    assert _locks.registered() == 0
    assert not _locks.lock_file(tmp_path / "shared").exists()  # lock files go with their last user
    assert not _locks.lock_file(tmp_path / "f499").exists()


def _plant_at_the_old_places(shared_tmp: Path, elsewhere: Path) -> None:
    """What another account could create first in a shared temp folder, under the old lock
    folder's name (``<tmp>/assista-odoo-locks-<uid>``): a link to its own folder."""
    shared_tmp.mkdir(exist_ok=True)
    (shared_tmp / f"assista-odoo-locks-{os.getuid()}").symlink_to(elsewhere)


def test_lock_files_live_in_the_users_private_folder_not_in_the_shared_temp_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from odoo_tools.files import _locks, path_locks

    elsewhere = tmp_path / "theirs"
    elsewhere.mkdir(mode=0o777)
    _plant_at_the_old_places(tmp_path / "shared-tmp", elsewhere)
    cache = tmp_path / "cache"
    monkeypatch.setenv("TMPDIR", str(tmp_path / "shared-tmp"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    target = tmp_path / "addons" / "shared.py"
    with path_locks(target):
        held = _locks.lock_file(target)
        assert held.exists() and held.parent == cache / "assista-odoo" / "locks"
    assert stat.S_IMODE(held.parent.stat().st_mode) == 0o700
    assert list(elsewhere.iterdir()) == []


def test_a_lock_folder_that_is_a_link_or_open_to_others_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from odoo_tools.errors import ConfigError
    from odoo_tools.files import _locks

    cache, elsewhere = tmp_path / "cache", tmp_path / "theirs"
    elsewhere.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    folder = _locks.lock_folder()
    assert folder == cache / "assista-odoo" / "locks" and stat.S_IMODE(folder.stat().st_mode) == 0o700
    folder.chmod(0o777)  # ours but opened to all: narrowed back
    assert stat.S_IMODE(_locks.lock_folder().stat().st_mode) == 0o700
    folder.rmdir()
    folder.symlink_to(elsewhere)  # a link in its place: a clear refusal, nothing written
    with pytest.raises(ConfigError, match="No private folder"):
        _locks.lock_folder()
    assert list(elsewhere.iterdir()) == []


def test_processes_with_and_without_a_runtime_folder_share_their_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editor's server started from a desktop login has XDG_RUNTIME_DIR; an agent started from an
    # ssh or cron shell often has not. Both must take the same lock for the same file.
    from odoo_tools.files import _locks

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    target = tmp_path / "addons" / "shared.py"
    (tmp_path / "run").mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    with_runtime = _locks.lock_file(target)
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert _locks.lock_file(target) == with_runtime


@pytest.mark.anyio
async def test_writes_work_with_a_hostile_name_at_the_old_lock_folder(
    server_for: Any, addons: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "theirs"
    elsewhere.mkdir(mode=0o777)
    _plant_at_the_old_places(tmp_path / "shared-tmp", elsewhere)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "shared-tmp"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    server = server_for(addons)
    async with Client(server) as client:
        result = await client.call_tool("write_file", {"path": "new_file.py", "content": "x = 1\n"})
    assert not result.is_error, result
    assert (addons / "new_file.py").read_text(encoding="utf-8") == "x = 1\n"
    assert list(elsewhere.iterdir()) == []
