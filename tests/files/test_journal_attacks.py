"""A cloned repository, or a model's edits, against the journal that finishes interrupted patches.

A journal is replayed at every start of ``serve``, ``run`` and ``chat`` (building the server). Only a
journal this user's own commit recorded (in the user's data folder) is replayed; one that came with
the tree is reported and left alone. Each step is checked again right before it runs, folder by
folder without following a link, and the write tools refuse our journal and temporary names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.agent.loop.protected import ProtectedPaths, is_protected
from odoo_tools.files import recover_interrupted_writes
from odoo_tools.files._journal import Step, record_journal
from odoo_tools.workspace import Workspace
from tests.files.conftest import error_text

DEAD_PID = 999_999_999
JOURNAL = f".assista-journal-{DEAD_PID}-0123456789ab.json"


def _journal(root: Path, steps: list[dict[str, Any]], name: str = JOURNAL) -> Path:
    path = root / name
    path.write_text(json.dumps({"version": 1, "steps": steps}), encoding="utf-8")
    return path


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me", encoding="utf-8")
    return victim


def _symlink_then_delete_through_it(root: Path, prefix: str) -> None:
    """The attack as shipped in a repository: a link named like our temp file, renamed into place
    by step 1, then a file below it deleted by step 2 (checked before step 1 ran, it was inside)."""
    (root / f".d.{DEAD_PID}-0123456789ab.tmp").symlink_to("../victim")
    _journal(
        root,
        [
            {"op": "replace", "path": f"{prefix}/d", "temp": f"{prefix}/.d.{DEAD_PID}-0123456789ab.tmp"},
            {"op": "delete", "path": f"{prefix}/d/precious.txt", "temp": None},
        ],
    )


def test_a_shipped_journal_does_not_delete_outside_the_root_at_server_start(
    tmp_path: Path, server_for: Callable[..., Any]
) -> None:
    victim = _victim(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    _symlink_then_delete_through_it(root, str(root))
    server_for(root)  # what serve, run and chat do at start
    assert (victim / "precious.txt").read_text(encoding="utf-8") == "keep me"
    assert not (root / "d").exists()
    assert (root / JOURNAL).exists(), "a journal that came with the tree is left alone"


def test_a_shipped_journal_through_proc_self_cwd_needs_no_machine_path(
    tmp_path: Path, server_for: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = _victim(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    _symlink_then_delete_through_it(root, "/proc/self/cwd")
    monkeypatch.chdir(root)  # an MCP host starts the server in the repository
    server_for(root)
    assert (victim / "precious.txt").read_text(encoding="utf-8") == "keep me"


def test_the_real_serve_command_refuses_a_shipped_journal(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    _symlink_then_delete_through_it(root, "/proc/self/cwd")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env["ASSISTA_HOME"] = str(tmp_path / "home")
    env["ASSISTA_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "assista_mcp", "serve", "--addons-path", str(root)],
        cwd=root, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (victim / "precious.txt").read_text(encoding="utf-8") == "keep me", done.stderr
    assert JOURNAL in done.stderr and "not replayed" in done.stderr


def test_a_recorded_journal_never_follows_a_link_put_in_place_of_its_temp_file(tmp_path: Path) -> None:
    """Even a journal of ours: a staged file swapped for a link, or a folder swapped for one, is
    refused at the step itself, and the later steps do not run either."""
    victim = _victim(tmp_path)
    root = tmp_path / "repo"
    (root / "mod").mkdir(parents=True)
    ws = Workspace([root])
    real = ws.writable_roots[0]
    temp = real / f".d.{DEAD_PID}-0123456789ab.tmp"
    temp.symlink_to("../victim")
    steps = [Step("replace", real / "d", temp), Step("delete", real / "d" / "precious.txt")]
    record_journal(ws, real, steps, name=JOURNAL)
    report = recover_interrupted_writes(ws)
    assert report.refused == [JOURNAL]
    assert (victim / "precious.txt").read_text(encoding="utf-8") == "keep me"
    assert not (real / "d").exists()


def test_a_recorded_journal_does_not_walk_through_a_linked_folder(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    root = tmp_path / "repo"
    root.mkdir()
    ws = Workspace([root])
    real = ws.writable_roots[0]
    record_journal(ws, real, [Step("delete", real / "link" / "precious.txt")], name=JOURNAL)
    (real / "link").symlink_to(victim)  # swapped in after the journal was written
    recover_interrupted_writes(ws)
    assert (victim / "precious.txt").read_text(encoding="utf-8") == "keep me"


def test_a_recorded_journal_is_replayed_once_and_a_copy_of_it_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "mod").mkdir(parents=True)
    (root / "mod" / "a.py").write_text("a = 1\n", encoding="utf-8")
    ws = Workspace([root])
    real = ws.writable_roots[0]
    text = record_journal(ws, real, [Step("delete", real / "mod" / "a.py")], name=JOURNAL)
    assert recover_interrupted_writes(ws).replayed == [JOURNAL]
    assert not (real / "mod" / "a.py").exists() and not (real / JOURNAL).exists()
    (real / "mod" / "a.py").write_text("a = 2\n", encoding="utf-8")
    (real / JOURNAL).write_bytes(text)  # the same bytes, planted again
    assert recover_interrupted_writes(ws).refused == [JOURNAL]
    assert (real / "mod" / "a.py").read_text(encoding="utf-8") == "a = 2\n"


# -- the model, through the write tools (auto-edit lets plain edits through) ----------------------

TEMP = f"..pre-commit-config.yaml.{DEAD_PID}-0123456789ab.tmp"


@pytest.mark.anyio
async def test_the_write_tools_refuse_our_journal_and_temp_names(
    tmp_path: Path, server_for: Callable[..., Any]
) -> None:
    root = tmp_path / "repo"
    (root / "mod").mkdir(parents=True)
    (root / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    (root / "mod" / "__manifest__.py").write_text("{'name': 'mod'}\n", encoding="utf-8")
    hook = "repos: [{repo: local, hooks: [{id: x, name: x, entry: sh -c 'touch pwned', language: system}]}]\n"
    steps = [
        {"op": "replace", "path": "/proc/self/cwd/.pre-commit-config.yaml", "temp": f"/proc/self/cwd/{TEMP}"},
        {"op": "delete", "path": "/proc/self/cwd/mod/__manifest__.py", "temp": None},
    ]
    async with Client(server_for(root)) as client:
        staged = await client.call_tool("write_file", {"path": TEMP, "content": hook})
        journal = await client.call_tool(
            "write_file", {"path": JOURNAL, "content": json.dumps({"version": 1, "steps": steps})}
        )
        patch = f"--- /dev/null\n+++ b/{JOURNAL}\n@@ -0,0 +1 @@\n+{{}}\n"
        patched = await client.call_tool("apply_patch", {"patch": patch})
        moved = await client.call_tool("move_file", {"source": "mod/__manifest__.py", "destination": TEMP})
        folder = await client.call_tool("create_folder", {"path": f"mod/.x.{DEAD_PID}-0123456789ab.tmp"})
    for result in (staged, journal, patched, moved, folder):
        assert "reserved" in error_text(result)
    assert not (root / TEMP).exists() and not (root / JOURNAL).exists()


@pytest.mark.anyio
async def test_planted_files_with_our_names_cannot_be_edited_or_deleted(
    tmp_path: Path, server_for: Callable[..., Any]
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / JOURNAL).write_text("{}", encoding="utf-8")
    (root / "innocent.txt").symlink_to(JOURNAL)
    async with Client(server_for(root)) as client:
        edited = await client.call_tool(
            "edit_file", {"path": JOURNAL, "edits": [{"old_text": "{}", "new_text": "[]"}]}
        )
        deleted = await client.call_tool("delete_file", {"path": JOURNAL})
        linked = await client.call_tool("write_file", {"path": "innocent.txt", "content": "[]"})
    for result in (edited, deleted, linked):
        assert "reserved" in error_text(result)
    assert (root / JOURNAL).read_text(encoding="utf-8") == "{}"


def test_our_journal_and_temp_names_are_protected_paths(tmp_path: Path) -> None:
    assert is_protected(JOURNAL) and is_protected(f"mod/{TEMP}")
    assert is_protected(".Assista-Journal-1-0123456789ab.json")
    assert is_protected("mod/.a.py.0123456789ab.tmp")  # the older temp name
    assert not is_protected("mod/notes.tmp") and not is_protected("mod/a.py")
    assert ProtectedPaths().among(["mod/a.py", JOURNAL]) == [JOURNAL]
