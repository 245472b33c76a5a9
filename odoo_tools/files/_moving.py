"""move_file and delete_file: both ends resolved for writing, both locked, no silent overwrite."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

from odoo_tools.errors import AlreadyExists, InvalidInput, SandboxViolation
from odoo_tools.files._locks import path_locks
from odoo_tools.files._models import DeleteFileResult, MoveFileResult
from odoo_tools.files._writing import make_parents
from odoo_tools.workspace import Resolved, Workspace


def move_file(ws: Workspace, source: str, destination: str, *, overwrite: bool = False) -> MoveFileResult:
    """Move or rename a file or folder. An existing destination file is replaced only if asked."""
    src = ws.resolve(source, purpose="write", follow_symlinks=False)  # a link moves, not its target
    dst = ws.resolve(destination, purpose="write", must_exist=False)
    _refuse_root(src, "move")
    if src.path == dst.path:
        raise InvalidInput(f"{src.rel!r} and {dst.rel!r} are the same path.", "Give a different destination.")
    if src.path.is_dir() and not src.path.is_symlink() and dst.path.is_relative_to(src.path):
        raise InvalidInput(f"Cannot move {src.rel!r} into itself.", "Choose a destination outside it.")
    with path_locks(src.path, dst.path):
        overwritten = dst.path.exists()
        if overwritten:
            _check_replaceable(src, dst, overwrite)
        make_parents(ws, dst)
        _rename(src.path, dst.path)
    return MoveFileResult(source=src.rel, destination=dst.rel, overwritten=overwritten)


def _check_replaceable(src: Resolved, dst: Resolved, overwrite: bool) -> None:
    if dst.path.is_dir():
        raise AlreadyExists(
            f"{dst.rel!r} is an existing folder.",
            f"Give the full new path, e.g. '{dst.rel}/{src.path.name}'.",
        )
    if not overwrite:
        raise AlreadyExists(f"{dst.rel!r} already exists.", "Pass overwrite=true to replace it.")
    if src.path.is_dir() and not src.path.is_symlink():
        raise InvalidInput(f"Cannot replace the file {dst.rel!r} with a folder.", "Delete it first.")


def _rename(src: Path, dst: Path) -> None:
    try:
        os.replace(src, dst)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        # Roots on different filesystems: copy next to the target, then swap it in.
        shutil.move(src, dst)


def delete_file(ws: Workspace, path: str, *, recursive: bool = False) -> DeleteFileResult:
    """Delete a file; a folder only with ``recursive`` (symlinks inside it are removed, not followed)."""
    target = ws.resolve(path, purpose="write", follow_symlinks=False)  # a link goes, not its target
    _refuse_root(target, "delete")
    if target.path.is_symlink():
        with path_locks(target.path):
            target.path.unlink()
        return DeleteFileResult(path=target.rel, kind="symlink", files_deleted=1)
    with path_locks(target.path):
        if not target.path.is_dir():
            target.path.unlink()
            return DeleteFileResult(path=target.rel, kind="file", files_deleted=1)
        if not recursive:
            raise InvalidInput(
                f"{target.rel!r} is a folder.", "Pass recursive=true to delete it and everything in it."
            )
        count = sum(len(files) for _, _, files in os.walk(target.path))
        shutil.rmtree(target.path)
    return DeleteFileResult(path=target.rel, kind="folder", files_deleted=count)


def _refuse_root(target: Resolved, verb: str) -> None:
    if target.path == target.root.path:
        raise SandboxViolation(f"Cannot {verb} an addons root itself.", "Work on the files inside it.")
