"""A task folder of the task benchmark is attacker-written. Its ``before/`` was copied with links
followed (a link to a file outside put that file's content in the agent's workspace) and with its
``.git`` (``git apply`` then ran in that repository: its config's filter drivers ran as
commands). Such a task is refused before anything is copied, and no patch is applied in a work
folder holding a .git."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.odoo_tasks.tasks_io import apply_patch, build_before, load_task

PATCH = "--- a/mod/f.txt\n+++ b/mod/f.txt\n@@ -1 +1 @@\n-a\n+b\n"


def _task(tmp_path: Path) -> Path:
    folder = tmp_path / "tasks" / "18.0-mod-0000"
    (folder / "before" / "mod").mkdir(parents=True)
    (folder / "before" / "mod" / "f.txt").write_text("a\n")
    task: dict[str, object] = {"id": folder.name, "series": "18.0", "repo": "OCA/x", "module": "mod"}
    task["commit"] = "0" * 40
    task |= {"parent": "1" * 40, "date": "2026-01-01", "kind": "logic fix", "statement": "s"}
    task |= {"depends": ["base"], "repo_modules": [], "fail_to_pass": [], "pass_to_pass": []}
    (folder / "task.json").write_text(json.dumps(task))
    return folder


def test_a_link_in_before_is_refused_and_nothing_outside_is_copied(tmp_path: Path) -> None:
    folder = _task(tmp_path)
    secret = tmp_path / "secret"
    secret.write_text("token")
    (folder / "before" / "mod" / "leak.txt").symlink_to(secret)
    addons = tmp_path / "work" / "addons"
    with pytest.raises(SystemExit, match="holds a link"):
        build_before(load_task(folder), addons)
    assert not any(p.read_text() == "token" for p in addons.rglob("*") if p.is_file())


def test_a_git_folder_in_before_runs_none_of_its_filters(tmp_path: Path) -> None:
    folder = _task(tmp_path)
    before = folder / "before"
    marker = tmp_path / "ran"
    subprocess.run(["git", "init", "-q", str(before)], check=True)
    for kind in ("clean", "smudge"):
        git = ["git", "-C", str(before), "config", f"filter.evil.{kind}"]
        subprocess.run([*git, f"sh -c 'touch {marker}; cat'"], check=True)
    (before / ".gitattributes").write_text("* filter=evil\n")
    addons = tmp_path / "work" / "addons"
    with pytest.raises(SystemExit, match="git folder"):
        build_before(load_task(folder), addons)
    # A .git that reaches the work folder another way (an agent's leg) gets no patch applied either.
    addons.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(before), str(addons)], check=True)
    assert apply_patch(addons, PATCH) is not None
    assert not marker.exists() and (addons / "mod" / "f.txt").read_text() == "a\n"


def test_a_pipe_in_before_is_refused(tmp_path: Path) -> None:
    folder = _task(tmp_path)
    os.mkfifo(folder / "before" / "mod" / "pipe.py")
    with pytest.raises(SystemExit, match="pipe"):
        build_before(load_task(folder), tmp_path / "work" / "addons")
