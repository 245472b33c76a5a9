"""One commit per module and step, with OCA's message ``[MIG] module: Migration to 18.0``,
holding only that module's files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import git

from odoo_tools.checkpoints import PlantedGitDir, user_repo
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
    edited = sorted({d.a_path or d.b_path or "" for d in repo.index.diff(None, paths=rel)})
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
    commit = repo.index.commit(f"[MIG] {module}: Migration to {target_series}")
    return commit.hexsha
