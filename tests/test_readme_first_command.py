"""The README's first command on this repository: what it prints is what the README shows.

``bash scripts/install.sh && .venv/bin/assista-odoo check --addons-path fixtures/addons`` on a
fresh clone: the install holds only the runtime dependencies, so every tool ``check`` runs here
must be one of them (ruff was a test extra: a fresh install printed "ruff is not installed" as an
error in each module, and the "clean" modules failed). The finding lines and the summary the
README shows are the command's own (the timing aside), and it exits 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from assista_mcp.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
SETUP = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
# The linters check runs on this repository (it configures ruff), as their distribution names.
TOOLS_CHECK_RUNS = ("pylint-odoo", "flake8", "ruff", "oca-odoo-pre-commit-hooks")


def _first_command() -> list[str]:
    first = re.findall(r"```bash\n(.*?)```", SETUP, re.DOTALL)[0].strip()
    install, check = first.split(" && ")
    assert install == "bash scripts/install.sh"
    words = check.split()
    assert words[0] == ".venv/bin/assista-odoo"
    return list(words[1:])


def _shown() -> str:
    return str(re.findall(r"```text\n(.*?)```", SETUP, re.DOTALL)[0])


def test_every_tool_check_runs_here_is_installed_by_the_install_script() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {re.split(r"[=<>;\[ ]", spec, maxsplit=1)[0].lower() for spec in project["dependencies"]}
    assert "[tool.ruff" in (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert set(TOOLS_CHECK_RUNS) <= runtime


def test_the_first_command_prints_what_the_readme_shows(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    assert main(_first_command()) == 1
    out = capsys.readouterr().out
    shown = _shown().splitlines()
    *findings, summary = shown
    for line in findings:
        assert line in out.splitlines(), f"the README shows a line check no longer prints: {line}"
    printed = [line for line in out.splitlines() if line.startswith("FAILED: ")]
    without_time = re.compile(r" \(\d+(?:\.\d+)?s\)$")
    assert [without_time.sub("", line) for line in printed] == [without_time.sub("", summary)]
    # "library_base and library_loan are clean": only library_broken has findings.
    assert "library_broken" in SETUP and "are clean" in SETUP
    located = {m.group(1) for m in re.finditer(r"^  fixtures/addons/(\w+)", out, re.MULTILINE)}
    assert located == {"library_broken"}
