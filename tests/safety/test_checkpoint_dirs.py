"""Folders created by a turn: found before the write, removed after undo only when empty."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.agent.safety.checkpoint_dirs import missing_folders, remember, remove_empty


def test_only_missing_folders_inside_the_root_are_remembered(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "mod").mkdir(parents=True)
    target = root / "mod" / "a" / "b" / "file.py"
    assert missing_folders(target, root) == [root / "mod/a/b", root / "mod/a"]
    assert missing_folders(root / "mod" / "file.py", root) == []
    assert missing_folders(tmp_path / "elsewhere" / "x" / "f", root) == []


def test_undo_removes_empty_new_folders_and_keeps_the_users_files(tmp_path: Path) -> None:
    state, root = tmp_path / "state", tmp_path / "root"
    state.mkdir()
    kept, empty = root / "kept", root / "new" / "deep"
    remember(state, "t1", missing_folders(kept / "f", root) + missing_folders(empty / "f", root))
    empty.mkdir(parents=True)
    kept.mkdir()
    (kept / "mine.txt").write_text("someone's work", encoding="utf-8")
    assert remove_empty(state, "t1") == [empty, root / "new"]
    assert (kept / "mine.txt").read_text(encoding="utf-8") == "someone's work"
    assert remove_empty(state, "other-turn") == []
