"""One commit per module and step, with OCA's message ``[MIG] module: Migration to 18.0``,
holding only that module's files.

Nothing of the repository runs: its hooks (``.git/hooks``, or a tracked folder ``core.hooksPath``
names), filter drivers (a ``.gitattributes`` line selects one, ``git diff`` and ``git add`` run its
``clean`` command) and fsmonitor. GitPython writes the blobs, tree and commit itself, its commit
with ``skip_hooks`` (it runs ``pre-commit`` and ``commit-msg`` on its own otherwise, honouring
``core.hooksPath``), and the module's working copy is compared with the index here, not by
``git diff``."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

import git

from odoo_tools.checkpoints import PlantedGitDir, blob_sha, user_repo
from odoo_tools.errors import InvalidInput


def repository_of(folder: Path) -> git.Repo:
    try:
        return user_repo(folder)
    except PlantedGitDir as exc:
        raise InvalidInput(str(exc), hint="Use --write without --commit.") from exc
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise InvalidInput(
            f"{folder} is not inside a git repository", hint="Use --write without --commit."
        ) from exc


def ready_to_commit(folder: Path) -> None:
    """Refused before anything is written: staged changes, or uncommitted edits to the module's
    tracked files, would go into the migration's ``[MIG]`` commit as if the migration made them."""
    repo = repository_of(folder)
    if repo.head.is_valid() and repo.index.diff("HEAD"):
        raise InvalidInput(
            "the git index already holds staged changes: they would go into the migration's commit.",
            hint="Commit or unstage them first, then migrate with --commit again.",
        )
    top = Path(repo.working_tree_dir or folder).resolve()
    rel = folder.resolve().relative_to(top).as_posix()
    edited = _edited(repo, top, rel)
    if edited:
        raise InvalidInput(
            f"{folder.name} has uncommitted changes ({', '.join(edited[:3])}"
            f"{', ...' if len(edited) > 3 else ''}): they would go into the migration's commit.",
            hint="Commit or stash them first, then migrate with --commit again.",
        )


def commit_step(
    folder: Path, module: str, target_series: str, written: Sequence[str], deleted: Sequence[str]
) -> str:
    """Commit the step's files (``ready_to_commit`` said the index and the module were clean);
    returns the commit's hexsha ('' when nothing changed)."""
    repo = repository_of(folder)
    top = Path(repo.working_tree_dir or folder).resolve()
    rel = folder.resolve().relative_to(top)
    if written:
        repo.index.add([str(rel / path) for path in written])
    tracked = {entry[0] for entry in repo.index.entries}
    gone = [str(rel / path) for path in deleted if str(rel / path) in tracked]
    if gone:
        repo.index.remove(gone)
    if not written and not gone:
        return ""
    commit = repo.index.commit(f"[MIG] {module}: Migration to {target_series}", skip_hooks=True)
    return commit.hexsha


def _edited(repo: git.Repo, top: Path, rel: str) -> list[str]:
    """The module's tracked files whose working copy is not what the index holds. As git decides
    it, without its clean filters: an unchanged size and time is unchanged, else the bytes'
    blob id is compared (a file a filter converts then reads as edited: refused, never lost)."""
    prefix = "" if rel == "." else f"{rel}/"
    edited = []
    for (name, _stage), entry in repo.index.entries.items():
        path = os.fspath(name)
        if not path.startswith(prefix):
            continue
        try:
            info = os.lstat(top / path)
        except OSError:
            edited.append(path)  # deleted
            continue
        if info.st_size == entry.size and (int(info.st_mtime), info.st_mtime_ns % 1_000_000_000) == (
            entry.mtime[0],
            entry.mtime[1],
        ):
            continue
        data = _working_bytes(top / path, info)
        if data is None or blob_sha(data) != entry.hexsha:
            edited.append(path)
    return sorted(edited)


def _working_bytes(path: Path, info: os.stat_result) -> bytes | None:
    """What git would hash for ``path``: a link's target, a regular file's bytes; None for a FIFO
    or anything else (read without blocking, never through a link)."""
    if stat.S_ISLNK(info.st_mode):
        return os.fsencode(os.readlink(path))
    if not stat.S_ISREG(info.st_mode):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read()
