"""Which modules changed relative to a git base (GitPython), for ``check --changed``."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from odoo_tools.addons import Addon
from odoo_tools.errors import ConfigError, InvalidInput, ToolMissing
from odoo_tools.lint._common import owner_of
from odoo_tools.lint._project import LintProject

CONFIG_FILES = frozenset(
    {".pylintrc", ".pylintrc-mandatory", ".flake8", "setup.cfg", "tox.ini", ".oca_hooks.cfg"}
    | {".pre-commit-config.yaml", ".ruff.toml", "ruff.toml"}
)
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
DEFAULT_BASES = ("origin/HEAD", "origin/main", "origin/master", "main", "master")


def changed_files(start: Path, base: str | None) -> tuple[Path, list[Path]]:
    """(repository top, changed paths): the merge base of ``base`` and HEAD against the work
    tree, plus untracked files. Deleted files are included (their module still changed)."""
    repo, top, since = _repo_and_base(start, base)
    names = _git_diff(repo, "--name-only", "--no-renames", since)
    paths = [top / name for name in names.splitlines() if name] + [top / n for n in repo.untracked_files]
    return top, sorted(set(paths))


def changed_lines(start: Path, base: str | None) -> dict[Path, set[int] | None]:
    """Lines added or changed since the merge base of ``base`` and HEAD, per file (absolute);
    ``None`` for a file that is new as a whole (untracked)."""
    repo, top, since = _repo_and_base(start, base)
    diff = _git_diff(repo, "-U0", "--no-color", "--no-ext-diff", "--no-renames", since)
    changed: dict[Path, set[int] | None] = {top / n: None for n in repo.untracked_files}
    current: set[int] | None = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            current = set() if name != "/dev/null" else None
            if current is not None:
                changed[top / name.removeprefix("b/")] = current
        elif (hunk := _HUNK.match(line)) and current is not None:
            first, count = int(hunk.group(1)), int(hunk.group(2) or "1")
            current.update(range(first, first + count))
    return changed


def repository_and_base(start: Path, base: str | None) -> tuple[Any, Path, str]:
    """(the git repository, its top folder, the merge base of ``base`` and HEAD)."""
    return _repo_and_base(start, base)


def _repo_and_base(start: Path, base: str | None) -> tuple[Any, Path, str]:
    try:
        import git

        from odoo_tools.checkpoints import PlantedGitDir, user_repo  # loads GitPython: only when git is used
    except ImportError as exc:  # pragma: no cover - GitPython is a dependency
        raise ToolMissing("GitPython is not installed.", "pip install GitPython") from exc
    try:
        repo = user_repo(start)
    except PlantedGitDir as exc:
        raise ConfigError(f"{exc}.", "Run --changed or --new-only inside a git checkout.") from exc
    except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
        raise ConfigError(
            f"{start} is not inside a git repository.", "Run --changed or --new-only inside a git checkout."
        ) from exc
    except git.GitCommandNotFound as exc:
        raise ToolMissing("git is not installed.", "Install git to use --changed or --new-only.") from exc
    top = Path(os.path.realpath(repo.working_tree_dir or start))
    ref = base or _default_base(repo)
    try:
        merge_base = repo.merge_base(ref, "HEAD")
    except (git.GitCommandError, git.BadName, ValueError) as exc:
        raise _bad_base(ref, exc) from exc
    return repo, top, merge_base[0].hexsha if merge_base else ref


def _git_diff(repo: Any, *args: str) -> str:
    import git

    try:
        return str(repo.git.diff(*args))
    except (git.GitCommandError, git.BadName, ValueError) as exc:
        raise _bad_base(args[-1], exc) from exc


def _bad_base(ref: str, exc: Exception) -> InvalidInput:
    return InvalidInput(
        f"Cannot compare with git base {ref!r}: {_git_reason(exc)}.",
        "Give an existing branch, tag or commit with --base (fetch it first in CI).",
    )


def _git_reason(exc: Exception) -> str:
    """git's own words without GitPython's wrapping (``stderr: 'fatal: ...'``)."""
    line = str(exc).strip().splitlines()[-1].strip()
    line = line.removeprefix("stderr:").strip().strip("'\"")
    return line.split("fatal:", 1)[-1].strip().rstrip(".")


def _default_base(repo: object) -> str:
    import git

    assert isinstance(repo, git.Repo)
    github_base = os.environ.get("GITHUB_BASE_REF")
    candidates = ([f"origin/{github_base}"] if github_base else []) + list(DEFAULT_BASES)
    for candidate in candidates:
        try:
            repo.commit(candidate)
            return candidate
        except (git.BadName, ValueError, git.GitCommandError):
            continue
    raise InvalidInput("No git base found (tried " + ", ".join(candidates) + ").", "Pass --base REF.")


def changed_modules(project: LintProject, paths: list[Path], *, with_dependents: bool) -> list[Addon]:
    """Checkable modules holding a changed path; every module when a linter config changed."""
    if any(p.name in CONFIG_FILES for p in paths):
        return project.checkable()
    addons = project.checkable()
    checkable = {a.name: a for a in addons}
    owners = (owner_of(Path(os.path.realpath(path)), addons) for path in paths)
    chosen = {owner.name for owner in owners if owner is not None}
    if with_dependents:
        for name in list(chosen):
            chosen |= project.addon_set.reverse_dependencies(name) & set(checkable)
    return [checkable[name] for name in sorted(chosen)]


def shard(addons: list[Addon], spec: str) -> list[Addon]:
    """``"I/N"``: the I-th of N deterministic slices (round-robin over names), 1-based."""
    try:
        index, count = (int(part) for part in spec.split("/"))
    except ValueError:
        raise InvalidInput(f"Bad --shard {spec!r}.", "Use I/N with 1 <= I <= N, e.g. --shard 2/4.") from None
    if not 1 <= index <= count:
        raise InvalidInput(f"Bad --shard {spec!r}: I must be between 1 and N.", "e.g. --shard 1/4 ... 4/4.")
    ordered = sorted(addons, key=lambda a: a.name)
    return ordered[index - 1 :: count]
