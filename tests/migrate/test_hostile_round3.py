"""Round-3 attacks on ``assista-odoo migrate``, through the real CLI: the modules, their git
repository and everything beside them are written by an attacker."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import git
import pytest

from assista_mcp.cli import main


def _committed(folder: Path) -> git.Repo:
    """``folder`` as a git repository holding every file in one commit (written by GitPython:
    nothing of the repository runs while the fixture is built)."""
    repo = git.Repo.init(folder)
    files = [p for p in folder.rglob("*") if p.is_file() and ".git" not in p.relative_to(folder).parts]
    repo.index.add([str(p.relative_to(folder)) for p in files])
    repo.index.commit("fixtures", skip_hooks=True)
    return repo


def _script(path: Path, marker: Path, word: str, *, then: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho {word} >> '{marker}'\n{then}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction")


def test_migrate_commit_runs_no_hook_filter_or_fsmonitor_of_the_repository(
    modules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    """A tracked ``.githooks`` folder the repository's config names as core.hooksPath (GitPython's
    commit ran its pre-commit and commit-msg itself), hooks in .git/hooks, a tracked clean filter
    that ``.gitattributes`` selects for the module's files (``git diff`` ran it on a file whose
    time changed) and an fsmonitor command: none of them runs."""
    marker = tmp_path / "ran.log"
    for hook in HOOKS:
        _script(modules / ".githooks" / hook, marker, hook)
        _script(modules / ".git-hooks-copy" / hook, marker, f"git-dir {hook}")
    _script(modules / "tools" / "clean.sh", marker, "clean-filter", then="cat\n")
    _script(modules / "tools" / "fsmonitor.sh", marker, "fsmonitor")
    (modules / ".gitattributes").write_text("* filter=evil\n")
    repo = _committed(modules)
    for hook in HOOKS:
        (Path(repo.git_dir) / "hooks").mkdir(exist_ok=True)
        os.replace(modules / ".git-hooks-copy" / hook, Path(repo.git_dir) / "hooks" / hook)
    with repo.config_writer() as config:
        config.set_value("core", "hooksPath", ".githooks")
        config.set_value("core", "fsmonitor", str(modules / "tools" / "fsmonitor.sh"))
        config.set_value('filter "evil"', "clean", str(modules / "tools" / "clean.sh"))
    for path in (modules / "v16").rglob("*"):  # same bytes, a new time: git re-reads them
        if path.is_file():
            os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    code = main(["migrate", str(modules / "v16"), "--to", "17.0", "--commit", "--no-diff"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert not marker.exists(), marker.read_text()
    assert repo.head.commit.message == "[MIG] mig_attrs: Migration to 17.0"
    assert "attrs=" not in repo.git.show("HEAD:v16/mig_attrs/views/thing_views.xml")
