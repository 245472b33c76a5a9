"""Modes and approvals decide by a call's effect (the registry), not by the tool's name.

Each attack of the review runs through the real CLI in ``auto-edit`` without a terminal, where
whatever needs approval is denied: before, each of these calls ran.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from assista_mcp.agent.loop.approvals import ApprovalRequest, Decision
from assista_mcp.agent.loop.toolset import ServerSpec
from assista_mcp.config.settings import Settings
from assista_mcp.safety.effects import Effect
from assista_mcp.server.mcp_server import build_server
from tests.agent.loop_support import agent
from tests.safety.conftest import ANCHOR, BOOK, RunAgent, StartServer, call, edit

MANIFEST = "library_loan/__manifest__.py"
INIT = "library_loan/__init__.py"


def _results(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["tool_call_id"]: e for e in events if e["type"] == "tool_result"}


def _deletion_patch(addons: Path, rel: str) -> str:
    lines = (addons / rel).read_text(encoding="utf-8").splitlines()
    body = "".join(f"-{line}\n" for line in lines)
    return f"--- a/{rel}\n+++ /dev/null\n@@ -1,{len(lines)} +0,0 @@\n{body}"


def test_auto_edit_asks_before_a_patch_deletes_a_manifest(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    before = (addons / MANIFEST).read_bytes()
    server = model_server(
        [
            {"tool_calls": [call("p1", "apply_patch", {"patch": _deletion_patch(addons, MANIFEST)})]},
            {"text": "done"},
        ]
    )
    _, events, _ = run_agent(server, addons, "clean up", "--mode", "auto-edit", "--no-validate")
    result = _results(events)["p1"]
    assert result["is_error"] and "Denied" in result["text"] and "delete" in result["text"]
    assert (addons / MANIFEST).read_bytes() == before


def test_auto_edit_asks_before_a_move_overwrites_another_modules_file(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    before = (addons / INIT).read_bytes()
    (addons / "library_base/stray.py").write_text("import os\n", encoding="utf-8")
    arguments = {"source": "library_base/stray.py", "destination": INIT, "overwrite": True}
    server = model_server([{"tool_calls": [call("m1", "move_file", arguments)]}, {"text": "done"}])
    _, events, _ = run_agent(server, addons, "tidy", "--mode", "auto-edit", "--no-validate")
    assert _results(events)["m1"]["is_error"]
    assert (addons / INIT).read_bytes() == before and (addons / "library_base/stray.py").exists()


@pytest.mark.parametrize(
    "protected",
    [
        ".pylintrc",
        "library_base/.flake8",
        "assista-odoo.toml",
        "AGENTS.md",
        "library_base/.git/config",
        ".oca_hooks.cfg",  # its [MESSAGES_CONTROL] disable= silences the OCA hooks' findings
    ],
)
def test_auto_edit_asks_before_writing_a_protected_path(
    run_agent: RunAgent, model_server: StartServer, addons: Path, protected: str
) -> None:
    server = model_server(
        [
            {
                "tool_calls": [
                    call("w1", "write_file", {"path": protected, "content": "[MASTER]\ninit-hook=0\n"}),
                    edit("e1", BOOK, ANCHOR, ANCHOR + "    edition = fields.Integer()\n"),
                ]
            },
            {"text": "done"},
        ]
    )
    _, events, _ = run_agent(server, addons, "configure", "--mode", "auto-edit", "--no-validate")
    results = _results(events)
    assert results["w1"]["is_error"] and "protected" in results["w1"]["text"]
    assert not (addons / protected).exists()
    assert not results["e1"]["is_error"]  # an ordinary edit still runs without asking
    _code, events, _ = run_agent(
        model_server(
            [{"tool_calls": [call("w2", "write_file", {"path": protected, "content": "x"})]}, {"text": "k"}]
        ),
        addons,
        "configure",
        "--mode",
        "yolo",
        "--no-validate",
    )
    assert not _results(events)["w2"]["is_error"] and (addons / protected).exists()  # yolo skips it


def test_a_foreign_servers_read_only_hint_is_not_trusted(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    command = f"{shlex.quote(sys.executable)} -m assista_mcp serve --addons-path {shlex.quote(str(addons))}"
    server = model_server(
        [
            {
                "tool_calls": [
                    call("r1", "odoo__read_file", {"paths": BOOK}),
                    call("l1", "odoo__list_directory", {"path": "."}),
                ]
            },
            {"text": "done"},
        ]
    )
    flags = ["--mode", "auto-edit", "--no-validate", "--mcp-server", f"odoo={command}"]
    _, events, _ = run_agent(server, addons, "look", *flags, "--read-only-tool", "odoo__read_*")
    results = _results(events)
    assert not results["r1"]["is_error"] and "class LibraryBook" in results["r1"]["text"]
    assert results["l1"]["is_error"] and "needs approval" in results["l1"]["text"]


@pytest.mark.anyio
async def test_the_approval_request_names_every_path_and_carries_the_whole_change(
    model_server: StartServer, addons: Path
) -> None:
    book = (addons / BOOK).read_text(encoding="utf-8")
    line_no = book.splitlines().index(ANCHOR.rstrip("\n")) + 1
    patch = (
        f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -{line_no} +{line_no},2 @@\n"
        f" {ANCHOR}+    edition = fields.Integer()\n"
        "--- /dev/null\n+++ b/library_base/doc/second_file.md\n@@ -0,0 +1 @@\n+# second\n"
    )
    server = model_server(
        [
            {"tool_calls": [call("p1", "apply_patch", {"patch": patch})]},
            {"tool_calls": [edit("e1", BOOK, ANCHOR, ANCHOR + "    isbn = fields.Char()\n")]},
            {"tool_calls": [call("w1", "write_file", {"path": BOOK, "content": book + "# end\n"})]},
            {"text": "done"},
        ]
    )
    asked: list[ApprovalRequest] = []

    async def approve(request: ApprovalRequest) -> Decision:
        asked.append(request)
        return Decision(tool_call_id=request.tool_call_id, verdict="deny")

    spec = ServerSpec("assista", build_server(Settings(addons_paths=[addons])), own=True)
    async with agent(server, addons, mode="ask", prompter=approve, specs=[spec]) as (loop, _events):
        await loop.run_turn("add fields")
    patched, edited, written = asked
    assert patched.paths.written == (BOOK, "library_base/doc/second_file.md")
    assert patched.change == patch and patched.effect is Effect.EDIT
    # The edit's diff comes from a dry run: shown in full, and nothing was written.
    assert "+    isbn = fields.Char()" in edited.change and edited.paths.written == (BOOK,)
    # A whole-file write shows its diff against the file as it is (read over MCP).
    assert written.change.startswith(f"--- a/{BOOK}") and "\n+# end\n" in written.change
    assert (addons / BOOK).read_text(encoding="utf-8") == book


def test_auto_commit_never_runs_a_command_the_model_put_in_git_config(
    run_agent: RunAgent, model_server: StartServer, addons: Path, tmp_path: Path
) -> None:
    """A model in yolo mode writes .git/config (core.fsmonitor = a command): our checkpoint commit must
    not run it."""
    from tests.safety.test_agent_undo import _git, _git_repo

    _git_repo(addons)
    ran = tmp_path / "ran"
    payload = tmp_path / "payload.sh"
    payload.write_text(f"#!/bin/sh\necho ran >> {ran}\n", encoding="utf-8")
    payload.chmod(0o755)
    config = (addons / ".git/config").read_text(encoding="utf-8") + f"[core]\n\tfsmonitor = {payload}\n"
    server = model_server(
        [
            {
                "tool_calls": [
                    call("g1", "write_file", {"path": ".git/config", "content": config}),
                    edit("e1", BOOK, ANCHOR, ANCHOR + "    edition = fields.Integer()\n"),
                ]
            },
            {"text": "Done."},
        ]
    )
    _, events, _ = run_agent(
        server, addons, "add a field", "--mode", "yolo", "--no-validate", "--auto-commit"
    )
    assert not _results(events)["g1"]["is_error"]  # yolo skips the question, as documented
    assert BOOK in _git(addons, "show", "--name-only", "--format=", "HEAD")  # the turn was committed
    assert not ran.exists()


def test_a_linter_file_the_pre_commit_names_is_protected_whatever_its_name(tmp_path: Path) -> None:
    """The pre-commit may name any rc file (--rcfile=lint/pylint.toml): a model that wrote
    disable=all there silenced pylint in auto-edit without a prompt. A file the linters read as the
    repository's configuration asks, like .pylintrc."""
    from assista_mcp.agent.loop.protected import ProtectedPaths
    from odoo_tools.workspace import Workspace

    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "lint").mkdir()
    (root / "lint" / "pylint.toml").write_text('[tool.pylint.main]\njobs = "1"\n', encoding="utf-8")
    (root / "lint" / "style.cfg").write_text("[flake8]\nmax-line-length = 88\n", encoding="utf-8")
    (root / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n    rev: v9.0.4\n    hooks:\n"
        "      - id: pylint_odoo\n        args: [--rcfile=lint/pylint.toml]\n",
        encoding="utf-8",
    )
    protected = ProtectedPaths(Workspace([root], private_dir=tmp_path / "home"))
    assert protected.among(["lint/pylint.toml", "lint/style.cfg", "lint/./pylint.toml"]) == [
        "lint/pylint.toml",
        "lint/./pylint.toml",
    ]
