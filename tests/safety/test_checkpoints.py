"""Checkpoints and undo: byte for byte, created/modified/deleted/binary files, user repo untouched."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from git import Repo

from odoo_tools.checkpoints import CheckpointStore, blob_sha, commit_to_user_repo
from odoo_tools.errors import EditConflict, NotFound

BINARY = bytes(range(256)) * 4


def _turn(store: CheckpointStore, changes: dict[Path, bytes | None]) -> str:
    """Play an agent turn: snapshot each file before writing it, then write or delete."""
    turn = store.begin_turn("test turn")
    for path, data in changes.items():
        store.record_before_write(turn.id, path)
        if data is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    store.end_turn(turn.id)
    return turn.id


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "addons"
    (root / "mod").mkdir(parents=True)
    (root / "mod" / "a.py").write_bytes(b"x = 1\n")
    (root / "mod" / "gone.xml").write_bytes(b"<odoo/>\n")
    (root / "mod" / "icon.png").write_bytes(BINARY)
    os.chmod(root / "mod" / "a.py", 0o640)
    return root


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def test_undo_restores_created_modified_deleted_and_binary_files(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    before = _snapshot(tree)
    _turn(
        store,
        {
            tree / "mod" / "a.py": b"x = 2\n",
            tree / "mod" / "new" / "b.py": b"y = 1\n",
            tree / "mod" / "gone.xml": None,
            tree / "mod" / "icon.png": BINARY[::-1],
        },
    )
    assert _snapshot(tree) != before
    undone = store.undo()
    assert undone.undone
    assert _snapshot(tree) == before  # bytes and modes, and the created file is gone


def test_diff_shows_text_changes_and_binary_notes(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    _turn(store, {tree / "mod" / "a.py": b"x = 2\n", tree / "mod" / "icon.png": b"\0new"})
    turn = store.last_turn()
    assert turn is not None
    text = store.diff(turn, relative_to=[tree])
    assert "--- a/mod/a.py" in text and "-x = 1" in text and "+x = 2" in text
    assert "Binary file mod/icon.png changed" in text


def test_diff_of_files_without_a_final_newline_is_a_valid_patch(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    (tree / "mod" / "a.py").write_bytes(b"x = 1")
    _turn(store, {tree / "mod" / "a.py": b"x = 2", tree / "mod" / "new.py": b"y = 1\n"})
    turn = store.last_turn()
    assert turn is not None
    lines = store.diff(turn, relative_to=[tree]).splitlines()
    assert lines[3:6] == ["-x = 1", "\\ No newline at end of file", "+x = 2"]
    assert "--- /dev/null" in lines and "+++ b/mod/new.py" in lines


def test_undo_refuses_when_a_file_changed_after_the_turn(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    _turn(store, {tree / "mod" / "a.py": b"x = 2\n"})
    (tree / "mod" / "a.py").write_bytes(b"x = 3  # the user's own work\n")
    with pytest.raises(EditConflict, match="changed after the agent's turn"):
        store.undo()
    assert (tree / "mod" / "a.py").read_bytes() == b"x = 3  # the user's own work\n"


def test_undo_refuses_when_a_deleted_file_was_recreated(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    _turn(store, {tree / "mod" / "gone.xml": None})
    (tree / "mod" / "gone.xml").write_bytes(b"<odoo>mine</odoo>")
    with pytest.raises(EditConflict):
        store.undo()


def test_nothing_to_undo_and_double_undo(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    with pytest.raises(NotFound, match="no agent turn"):
        store.undo()
    turn_id = _turn(store, {tree / "mod" / "a.py": b"x = 2\n"})
    store.undo()
    with pytest.raises(EditConflict, match="already undone"):
        store.undo(turn_id)


def test_a_turn_id_is_never_a_pattern(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    _turn(store, {tree / "mod" / "a.py": b"x = 2\n"})
    for pattern in ("*", "?" * 12, "[0-9a-f]*"):
        with pytest.raises(NotFound, match="No agent turn"):
            store.undo(pattern)
    assert (tree / "mod" / "a.py").read_bytes() == b"x = 2\n"


def test_first_snapshot_of_a_turn_wins(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    turn = store.begin_turn()
    target = tree / "mod" / "a.py"
    store.record_before_write(turn.id, target)
    target.write_bytes(b"step 1\n")
    store.record_before_write(turn.id, target)  # a second write in the same turn
    target.write_bytes(b"step 2\n")
    store.end_turn(turn.id)
    store.undo()
    assert target.read_bytes() == b"x = 1\n"


def test_store_survives_a_restart(tree: Path, tmp_path: Path) -> None:
    _turn(CheckpointStore(tmp_path / "state"), {tree / "mod" / "a.py": b"x = 9\n"})
    CheckpointStore(tmp_path / "state").undo()
    assert (tree / "mod" / "a.py").read_bytes() == b"x = 1\n"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def test_dirty_user_repository_is_left_alone(tree: Path, tmp_path: Path) -> None:
    repo = Repo.init(tree)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Dev")
        config.set_value("user", "email", "dev@example.com")
    repo.index.add(["mod/a.py", "mod/gone.xml"])
    repo.index.commit("initial")
    (tree / "mod" / "a.py").write_bytes(b"x = 1  # staged work\n")
    repo.index.add(["mod/a.py"])
    (tree / "stash_me.txt").write_text("wip")
    _git(tree, "stash", "push", "--include-untracked", "-m", "user stash")
    (tree / "mod" / "a.py").write_bytes(b"x = 1  # unstaged work\n")
    state = (_git(tree, "rev-parse", "HEAD"), _git(tree, "diff", "--cached"), _git(tree, "stash", "list"))
    branch = repo.active_branch.name

    store = CheckpointStore(tmp_path / "state")
    _turn(store, {tree / "mod" / "a.py": b"agent\n", tree / "mod" / "c.py": b"new\n"})
    store.undo()

    assert (tree / "mod" / "a.py").read_bytes() == b"x = 1  # unstaged work\n"
    assert not (tree / "mod" / "c.py").exists()
    assert (
        _git(tree, "rev-parse", "HEAD"),
        _git(tree, "diff", "--cached"),
        _git(tree, "stash", "list"),
    ) == state
    assert repo.active_branch.name == branch


def test_auto_commit_commits_exactly_the_turns_files(tree: Path) -> None:
    repo = Repo.init(tree)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Dev")
        config.set_value("user", "email", "dev@example.com")
    repo.index.add(["mod/a.py", "mod/gone.xml"])
    repo.index.commit("initial")
    (tree / "mod" / "a.py").write_bytes(b"x = 5\n")
    (tree / "mod" / "gone.xml").unlink()
    (tree / "unrelated.txt").write_text("not the agent's")
    sha = commit_to_user_repo([tree / "mod" / "a.py", tree / "mod" / "gone.xml"], "assista-odoo agent: t")
    assert sha == repo.head.commit.hexsha
    changed = set(repo.head.commit.stats.files)
    assert changed == {"mod/a.py", "mod/gone.xml"}
    assert "unrelated.txt" in repo.untracked_files


def test_blob_sha_matches_git(tmp_path: Path) -> None:
    sample = tmp_path / "f"
    sample.write_bytes(BINARY)
    assert (
        blob_sha(BINARY)
        == subprocess.run(
            ["git", "hash-object", str(sample)], capture_output=True, text=True, check=True
        ).stdout.strip()
    )


def test_auto_commit_leaves_other_staged_work_staged(tree: Path) -> None:
    repo = Repo.init(tree)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Dev")
        config.set_value("user", "email", "dev@example.com")
    repo.index.add(["mod/a.py", "mod/gone.xml"])
    repo.index.commit("initial")
    (tree / "mod" / "gone.xml").write_bytes(b"<odoo>staged by the user</odoo>\n")
    repo.index.add(["mod/gone.xml"])
    (tree / "mod" / "a.py").write_bytes(b"x = 5\n")
    (tree / "mod" / "brand_new.py").write_bytes(b"z = 1\n")
    commit_to_user_repo([tree / "mod" / "a.py", tree / "mod" / "brand_new.py"], "assista-odoo agent: t")
    assert set(repo.head.commit.stats.files) == {"mod/a.py", "mod/brand_new.py"}
    assert "mod/gone.xml" in _git(tree, "diff", "--cached", "--name-only")  # still staged, not committed


def test_old_turns_are_pruned(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import odoo_tools.checkpoints as checkpoints

    monkeypatch.setattr(checkpoints, "MAX_TURNS", 3)
    store = CheckpointStore(tmp_path / "state")
    ids = [_turn(store, {tree / "mod" / "a.py": f"x = {n}\n".encode()}) for n in range(5)]
    assert [t.id for t in store.turns()] == ids[-3:]
    with pytest.raises(NotFound):
        store.undo(ids[0])


def test_a_path_that_became_a_folder_is_left_alone(tree: Path, tmp_path: Path) -> None:
    store = CheckpointStore(tmp_path / "state")
    turn = store.begin_turn()
    target = tree / "mod" / "later"
    store.record_before_write(turn.id, target)  # absent before the turn
    target.mkdir()
    (target / "inside.py").write_bytes(b"kept\n")
    store.end_turn(turn.id)  # no crash: a folder is not a file state
    assert store.last_turn() is None  # nothing file-level changed, nothing to undo
    assert (target / "inside.py").read_bytes() == b"kept\n"


def test_auto_commit_runs_nothing_the_repository_configures(tree: Path, tmp_path: Path) -> None:
    """A model that wrote .git/config (core.fsmonitor) or a hook gets no command run by our commit."""
    repo = Repo.init(tree)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Dev")
        config.set_value("user", "email", "dev@example.com")
    repo.index.add(["mod/a.py"])
    repo.index.commit("initial")
    ran = tmp_path / "ran"
    payload = tmp_path / "payload.sh"
    payload.write_text(f'#!/bin/sh\necho "$0" >> {ran}\n', encoding="utf-8")
    payload.chmod(0o755)
    with repo.config_writer() as config:
        config.set_value("core", "fsmonitor", str(payload))
    for hook in ("pre-commit", "post-commit", "commit-msg", "post-index-change"):
        target = tree / ".git" / "hooks" / hook
        target.parent.mkdir(exist_ok=True)
        target.write_text(payload.read_text(encoding="utf-8"), encoding="utf-8")
        target.chmod(0o755)
    (tree / "mod" / "a.py").write_bytes(b"x = 5\n")
    (tree / "mod" / "new.py").write_bytes(b"y = 1\n")
    sha = commit_to_user_repo([tree / "mod" / "a.py", tree / "mod" / "new.py"], "assista-odoo agent: t")
    assert sha == repo.head.commit.hexsha
    assert set(repo.head.commit.stats.files) == {"mod/a.py", "mod/new.py"}
    assert not ran.exists(), ran.read_text(encoding="utf-8")


def test_a_private_file_s_snapshots_stay_private(tree: Path, tmp_path: Path) -> None:
    """The store keeps copies of every file a turn edits (git objects are created 0444): another
    local account must not read a 0600 file's old or new content in them, whatever the umask and
    the mode of the data folder above (a home folder is often 0755)."""
    secret = tree / "mod" / "odoo.conf"
    secret.write_bytes(b"db_password = hunter2\n")
    secret.chmod(0o600)
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)
    old = os.umask(0o022)
    try:
        store = CheckpointStore(data_dir / "checkpoints" / "abc")
        _turn(store, {secret: b"db_password = hunter3\n"})
    finally:
        os.umask(old)
    readable = [p for p in (data_dir / "checkpoints").rglob("*") if _open_to_others(p, 0o004)]
    folders = {p: [d for d in p.parents if d.is_relative_to(data_dir)] for p in readable}
    reachable = [p for p in readable if all(_open_to_others(d, 0o001) for d in folders[p])]
    assert reachable == []


def _open_to_others(path: Path, bits: int) -> bool:
    return bool(stat.S_IMODE(path.stat().st_mode) & bits)
