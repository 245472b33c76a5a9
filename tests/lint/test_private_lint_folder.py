"""The linters' private folder (cleaned configurations, their working directory) lives under the
user's own runtime or cache folder: a name another account plants in the shared temp folder (a
file, a dangling link) no longer breaks every lint run, and nothing is created through a link."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from odoo_tools.storage import NotPrivate, private_folder, user_private_folder
from tests.lint.conftest import FIXTURE_ADDONS, run_cli


def test_a_link_planted_in_the_shared_temp_folder_does_not_break_check(tmp_path: Path) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    elsewhere = tmp_path / "theirs"
    (shared / f"assista-odoo-lint-{os.getuid()}").symlink_to(elsewhere)  # dangling, as planted
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS / "library_base", addons / "library_base")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    done = run_cli(
        ["check", str(addons), "--format", "json"],
        cwd=tmp_path,
        cache=tmp_path / "cache",
        extra_env={"TMPDIR": str(shared), "XDG_RUNTIME_DIR": str(runtime)},
    )
    assert done.returncode in (0, 1), done.stderr
    codes = {f["code"] for f in json.loads(done.stdout)["findings"]}
    assert not codes & {"linter-crashed", "tool-missing"}, codes
    assert not elsewhere.exists()
    lint = runtime / "assista-odoo" / "lint"
    assert lint.is_dir() and stat.S_IMODE(lint.stat().st_mode) == 0o700


def test_a_private_folder_is_never_a_link_nor_another_accounts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    (runtime / "assista-odoo").symlink_to(tmp_path)  # not ours to use: skipped for the cache folder
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = user_private_folder("lint")
    assert folder.is_relative_to(tmp_path / "cache") and stat.S_IMODE(folder.stat().st_mode) == 0o700
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    loose.chmod(0o777)
    assert stat.S_IMODE(private_folder(loose).stat().st_mode) == 0o700  # ours: narrowed
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(NotPrivate):
        private_folder(tmp_path / "file")
