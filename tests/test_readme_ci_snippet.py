"""The README's GitHub Actions workflow works: its install line names this distribution from git,
and its check steps, run as written in a pull request's clone, do what they say."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import git
import pytest
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
CLI = [str(Path(sys.executable).with_name("assista-odoo"))]


def _workflow() -> dict[str, Any]:
    for block in re.findall(r"```yaml\n(.*?)```", README, re.DOTALL):
        document = yaml.safe_load(block)
        if isinstance(document, dict) and "jobs" in document:
            return document
    raise AssertionError("the README has no GitHub Actions workflow")


def _runs() -> list[str]:
    steps = _workflow()["jobs"]["check"]["steps"]
    return [" ".join(step["run"].split()) for step in steps if "run" in step]


def test_the_install_line_is_this_distribution_from_git_at_a_pinned_commit() -> None:
    [install] = [run for run in _runs() if run.startswith("pip install")]
    requirement = Requirement(shlex.split(install)[2])
    project = re.search(r'^name = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.MULTILINE)
    assert project and requirement.name == project.group(1)
    assert requirement.url and requirement.url.startswith("git+https://") and "@" in requirement.url


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """A clone whose origin/main has the example addons, and a change to library_loan on top."""
    origin = tmp_path / "origin"
    shutil.copytree(REPO / "fixtures" / "addons", origin)
    upstream = git.Repo.init(origin, initial_branch="main")
    upstream.git.add(A=True)
    upstream.git.commit(m="base", author="t <t@t>", **{"no-verify": True})
    clone = git.Repo.clone_from(str(origin), tmp_path / "clone")
    model = Path(clone.working_tree_dir or "") / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n\nundefined_name_here\n", encoding="utf-8")
    return Path(clone.working_tree_dir or "")


def test_the_check_steps_run_as_written(pull_request: Path, tmp_path: Path) -> None:
    expressions = {"github.base_ref": "main", "matrix.shard": "1", "github.sha": "x"}
    checks = [run for run in _runs() if run.startswith("assista-odoo check")]
    assert len(checks) == 2
    outputs = []
    for run in checks:
        line = re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: expressions[m.group(1)], run)
        line = line.removesuffix(" || true")
        env = {
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            "HOME": str(tmp_path),
            "ASSISTA_CACHE_DIR": str(tmp_path / "cache"),
            "CI": "true",
        }
        result = subprocess.run(
            [*CLI, *shlex.split(line)[1:]],
            cwd=pull_request,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode in (0, 1), result.stdout + result.stderr
        outputs.append(result)
    annotations = outputs[0].stdout
    assert "::error file=library_loan/models/library_loan.py" in annotations
    assert "library_base/" not in annotations  # unchanged modules are not reported
    assert (pull_request / "check.sarif").is_file()
