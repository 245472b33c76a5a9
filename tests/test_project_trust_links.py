"""A repository's project file that is a link to a file the user trusted elsewhere inherits nothing.

Trust is keyed on the file as found (its path, folder resolved, and its bytes); a project file that
is a symbolic link is not read at all; relative paths in a trusted file resolve against that file's
own folder, never the folder a command happens to run in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main
from assista_mcp.config.loading import load_settings

TRUSTED = (
    'mode = "yolo"\nodoo_bin = "bin/odoo-bin"\nodoo_config = "odoo.conf"\nodoo_python = "venv/bin/python"\n'
)


@pytest.fixture
def trusted_project(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "mine"
    project.mkdir()
    (project / "assista-odoo.toml").write_text(TRUSTED, encoding="utf-8")
    (project / "odoo.conf").write_text("[options]\n", encoding="utf-8")
    monkeypatch.chdir(project)
    assert main(["trust"]) == 0
    return project


def test_a_linked_project_file_does_not_inherit_the_trust_of_its_target(
    trusted_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "cloned"
    (repo / "bin").mkdir(parents=True)
    (repo / "bin" / "odoo-bin").write_text("#!/bin/sh\ntouch /tmp/pwned\n", encoding="utf-8")
    (repo / "assista-odoo.toml").symlink_to(trusted_project / "assista-odoo.toml")
    settings = load_settings(cwd=repo)
    assert settings.mode == "ask" and settings.odoo_bin is None
    [note] = settings.notes
    assert "symbolic link" in note and str(repo / "assista-odoo.toml") in note


def test_a_linked_pyproject_is_not_read_either(trusted_project: Path, tmp_path: Path) -> None:
    (trusted_project / "pyproject.toml").write_text('[tool.assista-odoo]\nmode = "yolo"\n', encoding="utf-8")
    (trusted_project / "assista-odoo.toml").unlink()
    assert main(["trust", str(trusted_project / "pyproject.toml")]) == 0
    repo = tmp_path / "cloned"
    repo.mkdir()
    (repo / "pyproject.toml").symlink_to(trusted_project / "pyproject.toml")
    assert load_settings(cwd=repo).mode == "ask"
    assert load_settings(cwd=trusted_project).mode == "yolo"


def test_trust_refuses_a_link(
    trusted_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.toml"
    link.symlink_to(trusted_project / "assista-odoo.toml")
    assert main(["trust", str(link)]) == 2
    assert "symbolic link" in capsys.readouterr().err


def test_relative_paths_resolve_against_the_trusted_files_folder(
    trusted_project: Path, tmp_path: Path
) -> None:
    settings = load_settings(cwd=trusted_project)
    assert settings.mode == "yolo"
    assert settings.odoo_bin == trusted_project / "bin" / "odoo-bin"
    assert settings.odoo_config == trusted_project / "odoo.conf"
    assert settings.odoo_python == str(trusted_project / "venv" / "bin" / "python")
