"""The pre-commit hook runs `assista-odoo check` with staged file names, from the repo top."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import yaml

from tests.lint.conftest import FIXTURE_ADDONS, REPO, run_cli


def _hook() -> dict[str, object]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return next(h for h in hooks if h["id"] == "assista-odoo-check")


def test_hook_definition() -> None:
    hook = _hook()
    assert hook["entry"] == "assista-odoo check" and hook["language"] == "python"
    assert hook["pass_filenames"] is True
    assert re.search(str(hook["files"]), "library_base/views/library_menus.xml")
    assert not re.search(str(hook["files"]), "README.md")


def test_hook_invocation_checks_only_the_modules_of_the_files(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE_ADDONS, repo)
    (repo / "setup.py").write_text("print('not a module')\n", encoding="utf-8")
    hook = _hook()
    argv = shlex.split(str(hook["entry"]))[1:] + list(hook["args"])  # type: ignore[call-overload]
    staged = ["library_loan/models/library_loan.py", "setup.py"]
    result = run_cli([*argv, "--checks", "flake8,static", *staged], cwd=repo, cache=tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: 1 module(s)" in result.stdout
    broken = run_cli(
        [*argv, "--checks", "static", "library_broken/__manifest__.py"], repo, tmp_path / "cache"
    )
    assert broken.returncode == 1 and "data-file-missing" in broken.stdout
