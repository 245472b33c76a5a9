from __future__ import annotations

import base64
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import AlreadyExists, SandboxViolation
from odoo_tools.files import atomic_write_bytes, create_folder, write_file
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK, error_text

pytestmark = pytest.mark.anyio


async def test_write_creates_parents_and_reports(call: Any, addons: Path) -> None:
    result = await call("write_file", path="library_new/models/thing.py", content="a = 1\nb = 2\n")
    assert not result.is_error
    assert result.structured_content == {
        "path": "library_new/models/thing.py",
        "created": True,
        "bytes_written": 12,
        "lines": 2,
    }
    assert (addons / "library_new/models/thing.py").read_text(encoding="utf-8") == "a = 1\nb = 2\n"


async def test_overwrite_keeps_the_file_mode(call: Any, addons: Path) -> None:
    script = addons / "library_base" / "run.sh"
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o751)
    result = await call("write_file", path="library_base/run.sh", content="#!/bin/sh\necho hi\n")
    assert not result.is_error and result.structured_content["created"] is False
    assert stat.S_IMODE(script.stat().st_mode) == 0o751
    assert script.read_text(encoding="utf-8").endswith("echo hi\n")


def test_new_file_gets_the_umask_mode(ws: Workspace, addons: Path) -> None:
    old = os.umask(0o027)
    try:
        write_file(ws, "fresh.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((addons / "fresh.txt").stat().st_mode) == 0o640


def test_atomic_write_leaves_no_temp_file_and_replaces_the_inode(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old", encoding="utf-8")
    before = target.stat().st_ino
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_ino != before  # replaced by rename, never rewritten in place
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_failed_write_keeps_the_old_content(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        atomic_write_bytes(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


async def test_write_without_overwrite_refuses_existing(call: Any, addons: Path) -> None:
    before = (addons / BOOK).read_bytes()
    result = await call("write_file", path=BOOK, content="x", overwrite=False)
    assert "already exists" in error_text(result)
    assert (addons / BOOK).read_bytes() == before


async def test_base64_write_round_trips(call: Any, addons: Path) -> None:
    data = bytes(range(256))
    result = await call(
        "write_file", path="static/img.bin", content=base64.b64encode(data).decode(), encoding="base64"
    )
    assert not result.is_error
    assert (addons / "static/img.bin").read_bytes() == data
    bad = await call("write_file", path="static/x.bin", content="@@not base64@@", encoding="base64")
    assert "base64" in error_text(bad)
    assert not (addons / "static/x.bin").exists()


def test_write_outside_the_roots_is_refused(ws: Workspace, tmp_path: Path) -> None:
    with pytest.raises(SandboxViolation):
        write_file(ws, "../escape.txt", "x")
    assert not (tmp_path / "escape.txt").exists()


async def test_create_folder_is_idempotent(call: Any, addons: Path) -> None:
    first = await call("create_folder", path="library_new/data")
    second = await call("create_folder", path="library_new/data")
    assert first.structured_content["created"] is True
    assert second.structured_content["created"] is False
    assert (addons / "library_new/data").is_dir()


def test_create_folder_over_a_file_is_refused(ws: Workspace) -> None:
    with pytest.raises(AlreadyExists):
        create_folder(ws, BOOK)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another owner")
def test_overwrite_keeps_the_owner(ws: Workspace, addons: Path) -> None:
    target = addons / "owned.txt"
    target.write_text("a", encoding="utf-8")
    os.chown(target, 1234, 2345)
    write_file(ws, "owned.txt", "b")
    st = target.stat()
    assert (st.st_uid, st.st_gid) == (1234, 2345) and target.read_text(encoding="utf-8") == "b"
