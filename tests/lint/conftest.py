"""Shared fixtures for the lint tests: one cold run over a copy of the bundled addons."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from odoo_tools.lint import FileDigests, LintCache, LintRun, lint_addons_sync, load_project

REPO = Path(__file__).resolve().parents[2]
FIXTURE_ADDONS = REPO / "fixtures" / "addons"
CLI = [sys.executable, "-m", "assista_mcp"]


@pytest.fixture(scope="module")
def fixture_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("lint") / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    return target


@pytest.fixture
def loan_only(tmp_path: Path) -> Path:
    """An addons root holding only a copy of library_loan."""
    root = tmp_path / "addons"
    root.mkdir()
    shutil.copytree(FIXTURE_ADDONS / "library_loan", root / "library_loan")
    return root


@pytest.fixture(scope="module")
def cold_run(fixture_copy: Path) -> LintRun:
    """Every check on the three bundled addons, cache off (the expensive part, done once)."""
    project = load_project([fixture_copy])
    return lint_addons_sync(project, project.select([]), cache=LintCache(None), digests=FileDigests())


def run_cli(
    args: Sequence[str],
    cwd: Path,
    cache: Path,
    extra_env: dict[str, str] | None = None,
    command: Sequence[str] = CLI,
) -> subprocess.CompletedProcess[str]:
    """``assista-odoo ...`` in a child process: plain CI output, private cache, no ASSISTA_* leaks."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSISTA_")}
    env.update({"CI": "true", "ASSISTA_CACHE_DIR": str(cache), "ASSISTA_HOME": str(cache / "home")})
    env.update(extra_env or {})
    return subprocess.run([*command, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
