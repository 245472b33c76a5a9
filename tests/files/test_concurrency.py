"""Writes to one file are serialized: 20 threads editing distinct lines of one file lose nothing."""

from __future__ import annotations

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


def test_a_lock_folder_others_can_reach_is_refused(tmp_path: Path) -> None:
    from odoo_tools.errors import ConfigError
    from odoo_tools.files import _locks

    assert _locks.lock_folder(tmp_path).stat().st_mode & 0o777 == 0o700
    shared = _locks.lock_folder(tmp_path)
    shared.chmod(0o777)  # as if another user had made it first, open to all
    with pytest.raises(ConfigError, match="not a private folder"):
        _locks.lock_folder(tmp_path)
    shared.rmdir()
    shared.symlink_to(tmp_path)
    with pytest.raises(ConfigError, match="not a private folder"):
        _locks.lock_folder(tmp_path)
