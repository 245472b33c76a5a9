"""The findings cache decides what the CI gate reports: an answer another account planted (a
shared XDG_CACHE_HOME, a cache folder left open under umask 0) would hide a module's findings.
The lint folder gets the check the index and migrate's readings got: this user's alone (0700,
not a link, checked on every use), answers read only when ours and 0600, and written so."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from tests.lint.conftest import run_cli


def _module(root: Path) -> Path:
    module = root / "addons" / "lib"
    module.mkdir(parents=True)
    manifest = {"name": "Lib", "version": "18.0.1.0.0", "depends": ["base"], "data": ["views/gone.xml"]}
    (module / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    (module / "__init__.py").write_text("", encoding="utf-8")
    return module


def _codes(tmp_path: Path, cache: Path) -> set[str]:
    done = run_cli(["check", "addons", "--checks", "static", "--format", "json"], cwd=tmp_path, cache=cache)
    assert done.returncode in (0, 1), done.stderr
    return {finding["code"] for finding in json.loads(done.stdout)["findings"]}


def _answers(cache: Path) -> list[Path]:
    return [p for p in (cache / "lint").rglob("*.json") if not p.name.startswith("files-")]


def test_an_answer_rewritten_by_another_account_hides_no_finding(tmp_path: Path) -> None:
    _module(tmp_path)
    cache = tmp_path / "cache"
    assert "data-file-missing" in _codes(tmp_path, cache)
    lint = cache / "lint"
    assert stat.S_IMODE(lint.stat().st_mode) == 0o700
    answers = _answers(cache)
    assert answers and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in answers)
    # Another account, given the folder open to all, rewrites every answer as "no findings".
    for folder in [lint, *(p.parent for p in answers)]:
        folder.chmod(0o777)
    for answer in answers:
        answer.unlink()
        answer.write_text("[]", encoding="utf-8")
        answer.chmod(0o666)
        if os.geteuid() == 0:
            os.chown(answer, 4242, 4242)
    assert "data-file-missing" in _codes(tmp_path, cache)
    assert stat.S_IMODE(lint.stat().st_mode) == 0o700  # narrowed again on use


def test_a_lint_folder_linked_elsewhere_is_not_used(tmp_path: Path) -> None:
    _module(tmp_path)
    cache = tmp_path / "cache"
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o777)
    cache.mkdir()
    (cache / "lint").symlink_to(theirs)
    for run in range(2):  # the second run reads nothing from there either
        assert "data-file-missing" in _codes(tmp_path, cache), run
        assert list(theirs.iterdir()) == []
