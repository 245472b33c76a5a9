"""Addons inside a repository that also holds an Odoo source tree are taken as Odoo's own (the
layout of an Odoo checkout): ``check`` says so and how to check them, never a silent
'0 module(s)' pass (issue 35)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with an Odoo tree (odoo/release.py) and, beside it, addons/ holding a module
    with a syntax error that the check would report."""
    top = tmp_path / "repo"
    (top / "odoo").mkdir(parents=True)
    (top / "odoo" / "release.py").write_text("version_info = (17, 0, 0, 'final', 0, '')\n")
    module = top / "addons" / "mymod"
    module.mkdir(parents=True)
    (module / "__manifest__.py").write_text(
        "{'name': 'mymod', 'version': '17.0.1.0.0', 'depends': ['base'], 'license': 'LGPL-3'}\n"
    )
    (module / "__init__.py").write_text("def broken(:\n")
    return top


def test_an_addons_path_taken_as_odoo_tree_says_its_modules_were_skipped(
    repo: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "--addons-path", str(repo / "addons"), "--checks", "static"])
    out = capsys.readouterr().out
    assert code == 0
    assert "skipped as Odoo's own" in out and "Odoo source tree" in out
    assert f"assista-odoo check {repo / 'addons'}/*" in out
    assert "no Odoo module found" not in out


def test_a_target_holding_only_odoo_tree_modules_says_why_and_how(
    repo: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(repo / "addons"), "--checks", "static"]) == 2
    err = capsys.readouterr().err
    assert "Odoo source tree" in err and "skipped" in err
    assert f"{repo / 'addons'}/<module>" in err


def test_naming_the_module_checks_it(
    repo: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the note advises works: the module named is checked (and no 'no module found' note)."""
    assert main(["check", str(repo / "addons" / "mymod"), "--checks", "pylint"]) == 1
    out = capsys.readouterr().out
    assert "mymod/__init__.py:1" in out and "no Odoo module found" not in out
