"""One step of a journal (a rename of a staged file into place, or a deletion), checked as it runs.

A step names absolute paths. Right before it runs, its folder is reached from the root it lies in,
one component at a time, each opened without following a link (``O_NOFOLLOW``), and the step
itself acts inside that folder (``dir_fd``): a link swapped in for a folder, or for the staged
file, between the check and the act is refused, never followed. Paths with ``..``, ``.`` or that
are not below a writable root as written (``/proc/self/cwd/...``) are refused before that.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from odoo_tools.storage import temp_prefix

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class Step:
    op: Literal["replace", "delete"]
    path: Path  # the file replaced or deleted
    temp: Path | None = None  # replace: the staged content


class StepRefused(OSError):
    """A step names something it may not touch (outside the roots, a link, not a staged file)."""

    def __init__(self, why: str) -> None:
        super().__init__(errno.EPERM, why)


def root_of(roots: tuple[Path, ...], step: Step) -> Path:
    """The writable root ``step`` lies in, as written; raises ``StepRefused`` otherwise."""
    for path in (step.path, step.temp):
        if path is not None and not _plain(path):
            raise StepRefused(f"{path} is not a plain absolute path")
    if step.temp is not None:
        same_folder = step.temp.parent == step.path.parent
        if not same_folder or not step.temp.name.startswith(temp_prefix(step.path)):
            raise StepRefused(f"{step.temp} is not a staged file of {step.path}")
    root = next((r for r in roots if step.path.parent.is_relative_to(r)), None)
    if root is None:
        raise StepRefused(f"{step.path} is outside the writable roots")
    return root


def carry_out(roots: tuple[Path, ...], step: Step) -> None:
    """Run ``step``; a step already done (replayed) is a no-op. Raises ``OSError`` when it cannot."""
    root = root_of(roots, step)
    with _folder(root, step.path.parent) as folder:
        if step.op == "delete":
            found = _lstat(folder, step.path.name)
            if found is None:
                return  # replayed: already gone
            if stat.S_ISDIR(found.st_mode):
                raise StepRefused(f"{step.path} is a folder")
            os.unlink(step.path.name, dir_fd=folder)
            return
        assert step.temp is not None
        staged = _lstat(folder, step.temp.name)
        if staged is None:
            return  # replayed: already renamed into place
        if not stat.S_ISREG(staged.st_mode) or staged.st_nlink != 1:
            raise StepRefused(f"{step.temp} is not a staged file (a link, a folder or a shared inode)")
        os.rename(step.temp.name, step.path.name, src_dir_fd=folder, dst_dir_fd=folder)


def _plain(path: Path) -> bool:
    text = str(path)
    parts = PurePosixPath(text).parts
    return path.is_absolute() and "//" not in text and not any(p in (".", "..") for p in parts)


@contextlib.contextmanager
def _folder(root: Path, folder: Path) -> Iterator[int]:
    """A descriptor of ``folder``, reached from ``root`` without following any link."""
    fd = os.open(root, _DIR_FLAGS)
    try:
        for part in folder.relative_to(root).parts:
            try:
                below = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise StepRefused(f"{folder}: {part!r} is a link or not a folder") from exc
                raise
            os.close(fd)
            fd = below
        yield fd
    finally:
        os.close(fd)


def _lstat(folder: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
