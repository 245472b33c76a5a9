"""Round-3 attacks on ``assista-odoo migrate``, through the real CLI: the modules, their git
repository and everything beside them are written by an attacker."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import git
import pytest
from mcp import Client

from assista_mcp.cli import main

from .conftest import snapshot

CHECKOUT = Path(__file__).resolve().parents[2]
REMOVED = CHECKOUT / "fixtures" / "migrate_removed"


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


def test_a_module_linked_out_of_the_folder_given_to_write_is_refused(
    modules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    """``addons/mig_attrs_link -> ../victim/mig_attrs``: the repository's link led the CLI's
    --write to rewrite a module outside the folder it was given (the MCP tool refuses it)."""
    victim = tmp_path / "victim"
    victim.mkdir()
    os.replace(modules / "v16" / "mig_attrs", victim / "mig_attrs")
    addons = modules / "v16"
    (addons / "linked").symlink_to(victim / "mig_attrs")
    before = snapshot(victim)
    code = main(["migrate", str(addons), "--to", "17.0", "--write"])
    err = capsys.readouterr().err
    assert code == 2 and "is a symlink to" in err and "outside" in err and "Traceback" not in err
    assert snapshot(victim) == before


def test_a_fifo_where_the_migration_writes_a_new_file_does_not_hang_write(tmp_path: Path) -> None:
    """rm_blocking gets models/account_move_line.py (a core field 18.0 removed, declared in the
    module): a FIFO at that name blocked ``--write`` forever, path locks held. Real CLI, so a hang
    is a timeout here."""
    shutil.copytree(REMOVED / "rm_blocking", tmp_path / "rm_blocking")
    module = tmp_path / "rm_blocking"
    os.mkfifo(module / "models" / "account_move_line.py")
    os.mkfifo(module / "models" / "pipe.xml")
    env = {
        **os.environ,
        "ASSISTA_HOME": str(tmp_path / "home"),
        "ASSISTA_CACHE_DIR": str(tmp_path / "c"),
        "PYTHONPATH": str(CHECKOUT),  # this checkout's code, whatever the venv installed
    }
    done = subprocess.run(
        [sys.executable, "-m", "assista_mcp", "migrate", str(module), "--to", "18.0", "--write", "--no-diff"],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    assert stat.S_ISFIFO((module / "models" / "account_move_line.py").lstat().st_mode)
    assert (
        "blocked = fields.Boolean()" in (module / "models" / "account_move_line_core_fields.py").read_text()
    )


@pytest.mark.anyio
async def test_a_fifo_in_the_module_does_not_hang_mcp_migrate_module_write(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    """The same FIFO through the real MCP server: the tool's thread blocked on it with the path
    locks held. A watchdog opens the FIFO's other end after 20 s, so the old hang ends as a
    slow answer instead of a frozen test."""
    shutil.copytree(REMOVED / "rm_blocking", tmp_path / "addons" / "rm_blocking")
    fifo = tmp_path / "addons" / "rm_blocking" / "models" / "account_move_line.py"
    os.mkfifo(fifo)
    stop = threading.Event()

    def watchdog() -> None:
        if not stop.wait(20):
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)

    guard = threading.Thread(target=watchdog, daemon=True)
    guard.start()
    started = time.monotonic()
    try:
        async with Client(server_for(tmp_path / "addons")) as client:
            result = await client.call_tool(
                "migrate_module", {"module": "rm_blocking", "to_series": "18.0", "write": True}
            )
    finally:
        stop.set()
    assert time.monotonic() - started < 20
    assert not result.is_error, result.content
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"  # writes the terminal's clipboard
FORGED = "\nmig_views: 17.0 -> 18.0 (written)\r"


def test_control_characters_in_names_and_files_reach_no_terminal_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    """A module, a file and a manifest version named with ESC, BEL, CR and newlines: migrate's
    text report and its usage errors show them escaped, one report line per line."""
    addons = tmp_path / "addons"
    module = addons / f"evil{OSC52}"
    (module / "views").mkdir(parents=True)
    (module / "__manifest__.py").write_text(f"{{'version': '17.0.1.0.0', 'summary': '{OSC52}'}}")
    view = '<odoo><record id="v" model="ir.ui.view">'
    view += '<field name="arch" type="xml"><tree/></field></record></odoo>'
    (module / "views" / f"a{FORGED}{OSC52}.xml").write_text(f"{view}\n")
    assert main(["migrate", str(addons), "--to", "18.0"]) in (0, 1)
    out = capsys.readouterr().out
    assert "<list/>" in out and "+{'version': '18.0.1.0.0'" in out  # the diff is shown
    assert not any(char in out for char in "\x1b\x07\r")
    assert not any(line.startswith("mig_views") for line in out.splitlines())

    (module / "__manifest__.py").write_text(repr({"version": f"1.0{OSC52}{FORGED}"}))
    assert main(["migrate", str(addons), "--to", "18.0"]) == 2
    err = capsys.readouterr().err
    assert "does not say its series" in err
    assert not any(char in err for char in "\x1b\x07\r") and len(err.strip().splitlines()) == 1
