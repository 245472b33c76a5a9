"""Checkpoints through a real agent run: undo byte for byte, refusal, non-git folder, user repo untouched."""

from __future__ import annotations

import base64
import difflib
import os
import subprocess
from pathlib import Path

import pytest

from tests.safety.conftest import ANCHOR, BOOK, RunAgent, StartServer, call, cli, edit, snapshot

ICON = "library_base/static/description/icon.png"
BINARY = bytes(range(256)) * 3
DEMO = "library_base/demo/library_demo.xml"
NEW = "library_base/doc/notes.md"
NEW_FIELD = "    edition = fields.Integer(default=1)\n"


def _busy_turn() -> list[dict[str, object]]:
    """One turn that modifies, creates (in a new folder), overwrites a binary and deletes."""
    payload = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00new").decode()
    return [
        {
            "tool_calls": [
                edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD),
                call("w1", "write_file", {"path": NEW, "content": "# Notes\n"}),
                call("w2", "write_file", {"path": ICON, "content": payload, "encoding": "base64"}),
                call("d1", "delete_file", {"path": DEMO}),
                call("c1", "create_folder", {"path": "library_base/wizard/views"}),
            ]
        },
        {"text": "Done."},
    ]


def _prepare(addons: Path) -> None:
    icon = addons / ICON
    icon.parent.mkdir(parents=True)
    icon.write_bytes(BINARY)
    os.chmod(icon, 0o640)


def test_undo_restores_every_file_byte_for_byte_in_a_plain_folder(
    run_agent: RunAgent, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _prepare(addons)
    before = snapshot(addons)
    server = model_server(_busy_turn())
    code, events, _ = run_agent(server, addons, "busy turn", "--mode", "yolo", "--no-validate")
    assert code == 0
    results = {e["tool_call_id"]: e for e in events if e["type"] == "tool_result"}
    assert not any(results[i]["is_error"] for i in ("e1", "w1", "w2", "d1", "c1")), results
    assert (addons / "library_base/wizard/views").is_dir()
    after = snapshot(addons)
    assert after != before and DEMO not in after and NEW in after
    notice = [e for e in events if e["tool_name"] == "checkpoint"]
    assert len(notice) == 1 and sorted(notice[0]["data"]["files"]) == sorted([BOOK, NEW, ICON, DEMO])
    assert events[-1]["type"] == "end"

    code, out, _ = cli(capsys, "diff", "--addons-path", str(addons))
    assert code == 0 and f"+{NEW_FIELD.rstrip()}" in out and f"Binary file {ICON} changed" in out
    assert f"--- a/{DEMO}" in out and "+++ /dev/null" in out and f"+++ b/{NEW}" in out
    code, out, _ = cli(capsys, "diff", "--list", "--addons-path", str(addons))
    assert code == 0 and "busy turn" in out and "4 file(s)" in out and "active" in out

    code, out, err = cli(capsys, "undo", "--addons-path", str(addons))
    assert code == 0, err
    assert snapshot(addons) == before  # bytes and permission bits
    assert "restored 4 file(s)" in out
    # The folders the turn created are gone again; the folder of the deleted file is back.
    assert not (addons / "library_base/doc").exists() and not (addons / "library_base/wizard").exists()
    assert "removed the empty folder library_base/wizard/views" in out
    assert not (addons / ".git").exists()  # a plain folder stays a plain folder
    # A second undo has nothing left to undo, and says so.
    code, _, err = cli(capsys, "undo", "--addons-path", str(addons))
    assert code == 1 and "no agent turn to undo" in err.lower()
    code, out, _ = cli(capsys, "diff", "--list", "--addons-path", str(addons))
    assert "undone" in out


def test_undo_refuses_when_a_file_changed_after_the_turn(
    run_agent: RunAgent, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Done."}])
    assert run_agent(server, addons, "add a field", "--mode", "auto-edit", "--no-validate")[0] == 0
    book = addons / BOOK
    mine = book.read_text(encoding="utf-8") + "# my own change\n"
    book.write_text(mine, encoding="utf-8")
    code, _, err = cli(capsys, "undo", "--addons-path", str(addons))
    assert code == 1
    assert BOOK.split("/")[-1] in err and "changed after the agent's turn" in err
    assert book.read_text(encoding="utf-8") == mine  # the later work is kept


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def _git_repo(addons: Path) -> None:
    _git(addons, "init", "-q", "-b", "main")
    _git(addons, "config", "user.email", "dev@example.com")
    _git(addons, "config", "user.name", "Dev")
    _git(addons, "add", ".")
    _git(addons, "commit", "-qm", "initial")


def _repo_state(addons: Path) -> dict[str, str]:
    return {
        "head": _git(addons, "rev-parse", "HEAD"),
        "branch": _git(addons, "branch", "--show-current"),
        "staged": _git(addons, "diff", "--cached"),
        "unstaged": _git(addons, "diff"),
        "stash": _git(addons, "stash", "list"),
        "refs": _git(addons, "for-each-ref"),
    }


def test_a_dirty_user_repository_is_left_alone(
    run_agent: RunAgent, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git_repo(addons)
    manifest = addons / "library_base/__manifest__.py"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# stashed\n", encoding="utf-8")
    _git(addons, "stash", "-q")
    (addons / "library_loan/__init__.py").write_text("# staged\n", encoding="utf-8")
    _git(addons, "add", "library_loan/__init__.py")
    (addons / "library_base/__init__.py").write_text("# unstaged\n", encoding="utf-8")
    state = _repo_state(addons)
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Done."}])
    assert run_agent(server, addons, "add a field", "--mode", "auto-edit", "--no-validate")[0] == 0
    assert _repo_state(addons) | {"unstaged": ""} == state | {"unstaged": ""}
    assert NEW_FIELD.strip() in _git(addons, "diff", "--", BOOK)
    assert cli(capsys, "undo", "--addons-path", str(addons))[0] == 0
    assert _repo_state(addons) == state  # branch, HEAD, index, stash, refs and the user's own edits


def test_auto_commit_commits_the_turn_on_the_branch(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    _git_repo(addons)
    head = _git(addons, "rev-parse", "HEAD").strip()
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Done."}])
    flags = ("--mode", "auto-edit", "--no-validate", "--auto-commit")
    code, events, _ = run_agent(server, addons, "add an edition field", *flags)
    assert code == 0
    assert _git(addons, "rev-parse", "HEAD~1").strip() == head
    message = _git(addons, "log", "-1", "--format=%B")
    assert (
        message.startswith("assista-odoo agent: add an edition field")
        and "Made by the assista-odoo agent" in message
    )
    assert _git(addons, "show", "--name-only", "--format=", "HEAD").split() == [BOOK]
    assert _git(addons, "status", "--porcelain") == ""
    notice = next(e for e in events if e["tool_name"] == "checkpoint")
    assert notice["data"]["commits"] == [_git(addons, "rev-parse", "HEAD").strip()]


def test_auto_commit_skips_when_the_user_has_staged_work(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    _git_repo(addons)
    (addons / "library_loan/__init__.py").write_text("# staged\n", encoding="utf-8")
    _git(addons, "add", "library_loan/__init__.py")
    head = _git(addons, "rev-parse", "HEAD")
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Done."}])
    flags = ("--mode", "auto-edit", "--no-validate", "--auto-commit")
    code, events, _ = run_agent(server, addons, "add a field", *flags)
    assert code == 0 and _git(addons, "rev-parse", "HEAD") == head
    warnings = [e["text"] for e in events if e["type"] == "error"]
    assert any("--auto-commit skipped" in w and "staged" in w for w in warnings), warnings


def _patch(addons: Path) -> str:
    old = (addons / BOOK).read_text(encoding="utf-8")
    new = old.replace(ANCHOR, ANCHOR + NEW_FIELD)
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{BOOK}", f"b/{BOOK}"
    )
    created = "--- /dev/null\n+++ b/library_base/README.md\n@@ -0,0 +1 @@\n+Library base\n"
    return "".join(lines) + created


def test_patches_and_folder_moves_are_undone_too(
    run_agent: RunAgent, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(addons)
    moved = {"source": "library_base/demo", "destination": "library_base/examples"}
    server = model_server(
        [
            {"tool_calls": [call("p1", "apply_patch", {"patch": _patch(addons)})]},
            {"tool_calls": [call("m1", "move_file", moved)]},
            {"text": "Patched and moved."},
        ]
    )
    code, events, _ = run_agent(server, addons, "patch and move", "--mode", "yolo", "--no-validate")
    assert code == 0
    assert not any(e["is_error"] for e in events if e["type"] == "tool_result"), events
    after = snapshot(addons)
    assert "library_base/README.md" in after and "library_base/examples/library_demo.xml" in after
    assert DEMO not in after
    assert cli(capsys, "undo", "--addons-path", str(addons))[0] == 0
    assert snapshot(addons) == before
    assert not (addons / "library_base/examples").exists()


def test_auto_commit_skips_a_file_with_the_users_uncommitted_changes(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    _git_repo(addons)
    book = addons / BOOK
    book.write_text(book.read_text(encoding="utf-8") + "# my work in progress\n", encoding="utf-8")
    head = _git(addons, "rev-parse", "HEAD")
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + NEW_FIELD)]}, {"text": "Done."}])
    flags = ("--mode", "auto-edit", "--no-validate", "--auto-commit")
    code, events, _ = run_agent(server, addons, "add a field", *flags)
    assert code == 0 and _git(addons, "rev-parse", "HEAD") == head  # the user's work is not committed
    warnings = [e["text"] for e in events if e["type"] == "error"]
    assert any("--auto-commit skipped" in w and "uncommitted changes of yours" in w for w in warnings), (
        warnings
    )
    assert "# my work in progress" in book.read_text(encoding="utf-8")
