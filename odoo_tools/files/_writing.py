"""Writes and folder creation inside the sandbox (atomic and durable: ``odoo_tools.storage``)."""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path
from typing import Literal

from odoo_tools.errors import AlreadyExists, InvalidInput, SandboxViolation
from odoo_tools.files._locks import path_locks
from odoo_tools.files._models import CreateFolderResult, WriteFileResult
from odoo_tools.files._textio import count_lines
from odoo_tools.storage import atomic_write_bytes
from odoo_tools.workspace import Resolved, Workspace

MAX_WRITE_BYTES = 10 * 1024 * 1024


def make_parents(ws: Workspace, target: Resolved) -> None:
    """Create the missing folders above ``target``, then re-check they stayed inside its root."""
    parent = target.path.parent
    if parent.is_dir():
        return
    if parent.exists():
        raise InvalidInput(f"{ws.relative(parent)!r} is a file, not a folder.", "Choose another path.")
    parent.mkdir(parents=True, exist_ok=True)
    if not Path(os.path.realpath(parent)).is_relative_to(target.root.path):
        raise SandboxViolation(
            f"The folder for {target.rel!r} resolves outside its addons root.", "Use another path."
        )


def decode_content(content: str, encoding: Literal["utf-8", "base64"]) -> bytes:
    if encoding == "base64":
        try:
            return base64.b64decode(content, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise InvalidInput(
                f"content is not valid base64: {exc}.", "Send base64 text, or use encoding='utf-8'."
            ) from exc
    return content.encode("utf-8")


def write_file(
    ws: Workspace,
    path: str,
    content: str,
    *,
    encoding: Literal["utf-8", "base64"] = "utf-8",
    overwrite: bool = True,
) -> WriteFileResult:
    """Create or replace a file atomically; missing parent folders are created inside the root."""
    data = decode_content(content, encoding)
    if len(data) > MAX_WRITE_BYTES:
        raise InvalidInput(
            f"content is {len(data)} bytes; the limit is {MAX_WRITE_BYTES}.", "Split the file up."
        )
    target = ws.resolve(path, purpose="write", must_exist=False)
    with path_locks(target.path):
        existed = target.path.exists()
        if existed and target.path.is_dir():
            raise InvalidInput(f"{target.rel!r} is a folder.", "Give a file path inside it instead.")
        if existed and not overwrite:
            raise AlreadyExists(
                f"{target.rel!r} already exists.", "Pass overwrite=true to replace it, or use edit_file."
            )
        make_parents(ws, target)
        atomic_write_bytes(target.path, data)
    lines = count_lines(content) if encoding == "utf-8" else 0
    return WriteFileResult(path=target.rel, created=not existed, bytes_written=len(data), lines=lines)


def create_folder(ws: Workspace, path: str) -> CreateFolderResult:
    """Create a folder (and its parents). Succeeds without change when it already exists."""
    target = ws.resolve(path, purpose="write", must_exist=False)
    if target.path.is_dir():
        return CreateFolderResult(path=target.rel, created=False)
    if target.path.exists():
        raise AlreadyExists(f"{target.rel!r} exists and is a file.", "Choose another folder name.")
    make_parents(ws, target)
    target.path.mkdir(exist_ok=True)
    return CreateFolderResult(path=target.rel, created=True)
