from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import InvalidInput, SandboxViolation
from odoo_tools.files import delete_file, move_file
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK, error_text

pytestmark = pytest.mark.anyio


async def test_move_refuses_to_overwrite_unless_asked(call: Any, addons: Path) -> None:
    target = "library_base/models/__init__.py"
    before = (addons / target).read_bytes()
    refused = await call("move_file", source=BOOK, destination=target)
    assert "already exists" in error_text(refused) and "overwrite" in error_text(refused)
    assert (addons / target).read_bytes() == before and (addons / BOOK).exists()
    book = (addons / BOOK).read_bytes()
    done = await call("move_file", source=BOOK, destination=target, overwrite=True)
    assert done.structured_content == {"source": BOOK, "destination": target, "overwritten": True}
    assert (addons / target).read_bytes() == book and not (addons / BOOK).exists()


async def test_move_folder_creates_parents(call: Any, addons: Path) -> None:
    result = await call("move_file", source="library_broken", destination="attic/library_broken")
    assert not result.is_error
    assert (addons / "attic/library_broken/__manifest__.py").exists() and not (
        addons / "library_broken"
    ).exists()


def test_move_into_itself_or_onto_folder_is_refused(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="into itself"):
        move_file(ws, "library_base", "library_base/sub")
    with pytest.raises(Exception, match="existing folder"):
        move_file(ws, BOOK, "library_loan")


def test_move_out_of_the_roots_is_refused(ws: Workspace, tmp_path: Path) -> None:
    with pytest.raises(SandboxViolation):
        move_file(ws, BOOK, "../stolen.py")
    assert not (tmp_path / "stolen.py").exists()


async def test_delete_folder_needs_recursive(call: Any, addons: Path) -> None:
    refused = await call("delete_file", path="library_broken")
    assert "recursive=true" in error_text(refused)
    assert (addons / "library_broken").is_dir()
    done = await call("delete_file", path="library_broken", recursive=True)
    assert done.structured_content["kind"] == "folder" and done.structured_content["files_deleted"] >= 5
    assert not (addons / "library_broken").exists()


async def test_delete_file(call: Any, addons: Path) -> None:
    result = await call("delete_file", path=BOOK)
    assert result.structured_content == {"path": BOOK, "kind": "file", "files_deleted": 1}
    assert not (addons / BOOK).exists()
    again = await call("delete_file", path=BOOK)
    assert "No such file" in error_text(again)


def test_deleting_a_root_is_refused(ws: Workspace, addons: Path) -> None:
    with pytest.raises(SandboxViolation, match="root"):
        delete_file(ws, ".", recursive=True)
    with pytest.raises(SandboxViolation, match="root"):
        delete_file(ws, str(addons), recursive=True)
    assert (addons / BOOK).exists()


def test_deleting_a_symlink_removes_the_link_not_its_target(
    ws: Workspace, addons: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep", encoding="utf-8")
    (addons / "escape").symlink_to(outside)
    (addons / "alias.py").symlink_to(addons / BOOK)
    assert delete_file(ws, "escape").kind == "symlink"
    assert delete_file(ws, "alias.py").kind == "symlink"
    assert not (addons / "escape").is_symlink() and (outside / "keep.txt").exists()
    assert not (addons / "alias.py").is_symlink() and (addons / BOOK).exists()


def test_moving_a_symlink_moves_the_link(ws: Workspace, addons: Path) -> None:
    (addons / "alias.py").symlink_to(addons / BOOK)
    result = move_file(ws, "alias.py", "library_base/alias.py")
    assert result.destination == "library_base/alias.py"
    assert (addons / "library_base/alias.py").is_symlink() and (addons / BOOK).exists()


def test_a_symlink_in_a_folder_outside_is_not_reached(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "link").symlink_to(outside)
    with pytest.raises(SandboxViolation):
        delete_file(ws, "../outside/link")
    assert (outside / "link").is_symlink()
