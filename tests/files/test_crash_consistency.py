"""kill -9 in the middle of a multi-file apply_patch: the next start leaves all files changed or none.

A child process applies the patch; at the N-th rename (the filesystem boundary) it says
so and waits, and the test kills it with SIGKILL there. Every pause point is tried: before the
journal is in place (nothing may be applied) and after each rename (all must be applied). The
"next start" is a server built over the same root.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.files import apply_patch, recover_interrupted_writes
from odoo_tools.workspace import Workspace

CHILD = """
import os, sys, time
from pathlib import Path
from odoo_tools.files import apply_patch
from odoo_tools.workspace import Workspace

root, patch, pause_at, marker = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
home = Path(sys.argv[5])  # the user data folder, where the journal is recorded
calls = 0

def then_wait(real):
    def rename(src, dst, **kwargs):
        global calls
        calls += 1
        if calls == pause_at:
            marker.write_text("paused")
            time.sleep(600)
        return real(src, dst, **kwargs)
    return rename

os.replace, os.rename = then_wait(os.replace), then_wait(os.rename)
apply_patch(Workspace([root], private_dir=home), Path(patch).read_text())
marker.write_text("done")
"""

PATCH = (
    "--- a/mod/a.py\n+++ b/mod/a.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
    "--- a/mod/b.py\n+++ b/mod/b.py\n@@ -1 +1 @@\n-b = 1\n+b = 2\n"
    "--- /dev/null\n+++ b/mod/new/c.py\n@@ -0,0 +1 @@\n+c = 1\n"
    "--- a/mod/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone = 1\n"
    "diff --git a/mod/old.xml b/mod/renamed.xml\n--- a/mod/old.xml\n+++ b/mod/renamed.xml\n"
    "@@ -1 +1 @@\n-<odoo/>\n+<odoo></odoo>\n"
)
# the journal's record, the journal, then a.py, b.py, new/c.py, renamed.xml (deletions are unlinks;
# the steps are renames inside their folder, which the child sees as os.rename)
REPLACES = 2 + 4
BEFORE_THE_JOURNAL = 2


def _tree(root: Path) -> Path:
    (root / "mod").mkdir(parents=True)
    for name, text in {
        "a.py": "a = 1\n",
        "b.py": "b = 1\n",
        "gone.py": "gone = 1\n",
        "old.xml": "<odoo/>\n",
    }.items():
        (root / "mod" / name).write_text(text, encoding="utf-8")
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _leftovers(root: Path) -> list[str]:
    return [p.name for p in root.rglob(".*") if p.name.endswith(".tmp") or "journal" in p.name]


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The tree before and after the patch, applied without interruption."""
    root = _tree(tmp_path_factory.mktemp("reference"))
    before = _snapshot(root)
    apply_patch(Workspace([root]), PATCH)
    return before, _snapshot(root)


def _kill_at(root: Path, tmp_path: Path, pause_at: int, home: Path) -> None:
    (tmp_path / "patch.diff").write_text(PATCH, encoding="utf-8")
    (tmp_path / "child.py").write_text(CHILD, encoding="utf-8")
    marker = tmp_path / "marker"
    argv = [sys.executable, str(tmp_path / "child.py"), str(root), str(tmp_path / "patch.diff")]
    child = subprocess.Popen([*argv, str(pause_at), str(marker), str(home)], cwd=Path(__file__).parents[2])
    try:
        while not marker.exists() and child.poll() is None:
            time.sleep(0.05)  # waiting for the child to reach the pause point, not a threshold
        assert marker.read_text() == "paused", f"the child ended before rename {pause_at}"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("pause_at", range(1, REPLACES + 1))
def test_a_kill_mid_patch_leaves_all_or_nothing_after_the_next_start(
    tmp_path: Path,
    pause_at: int,
    states: tuple[dict[str, bytes], dict[str, bytes]],
    server_for: Callable[..., Any],
    isolated_env: Path,
) -> None:
    before, after = states
    root = _tree(tmp_path / "addons")
    _kill_at(root, tmp_path, pause_at, isolated_env)
    if pause_at <= BEFORE_THE_JOURNAL:
        assert _leftovers(root), "the staged files should be there, waiting to be cleaned"
    server_for(root)  # the next start
    expected = before if pause_at <= BEFORE_THE_JOURNAL else after  # before the journal: none; after it: all
    assert _snapshot(root) == expected
    assert _leftovers(root) == []


def test_a_planted_journal_cannot_reach_outside_the_roots(tmp_path: Path) -> None:
    root = _tree(tmp_path / "addons")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me", encoding="utf-8")
    journal = root / ".assista-journal-999999999-0123456789ab.json"
    journal.write_text(f'{{"version": 1, "steps": [{{"op": "delete", "path": "{outside}", "temp": null}}]}}')
    report = recover_interrupted_writes(Workspace([root], private_dir=tmp_path / "home"))
    assert report.refused == [journal.name] and outside.read_text() == "keep me"
    assert journal.exists()  # not ours: reported and left as it is


def test_temp_files_of_live_writers_are_left_alone(tmp_path: Path) -> None:
    root = _tree(tmp_path / "addons")
    live = root / "mod" / f".a.py.{os.getpid()}-0123456789ab.tmp"
    dead = root / "mod" / ".a.py.999999999-0123456789ab.tmp"
    for temp in (live, dead):
        temp.write_bytes(b"x" * 1024)
    assert recover_interrupted_writes(Workspace([root])).temp_files_removed == 1
    assert live.exists() and not dead.exists()
