"""Broken modules, broken configurations and missing linters give findings or clear errors,
never a traceback and never a silent pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import git
import pytest

from tests.lint.conftest import REPO, run_cli


def _no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr


def test_python_syntax_error_is_a_finding(loan_only: Path, tmp_path: Path) -> None:
    (loan_only / "library_loan" / "models" / "library_book.py").write_text("def broken(:\n", encoding="utf-8")
    result = run_cli(
        ["check", "--addons-path", str(loan_only), "--checks", "pylint,flake8"], tmp_path, tmp_path / "c"
    )
    assert result.returncode == 1
    _no_traceback(result)
    assert "library_loan/models/library_book.py:1" in result.stdout
    # pylint and flake8 both see it: one problem, one finding (the one with the most detail).
    assert "[pylint E0001 syntax-error]" in result.stdout and "[flake8 E999]" not in result.stdout
    assert "1 error(s)" in result.stdout


def test_manifest_that_does_not_parse_is_reported_not_skipped(loan_only: Path, tmp_path: Path) -> None:
    (loan_only / "library_loan" / "__manifest__.py").write_text('{"name": "Loans",\n', encoding="utf-8")
    result = run_cli(
        ["check", "--addons-path", str(loan_only), "--checks", "static"], tmp_path, tmp_path / "c"
    )
    assert result.returncode == 1
    _no_traceback(result)
    assert "manifest-syntax" in result.stdout and "library_loan/__manifest__.py" in result.stdout


@pytest.mark.parametrize("check", ["static", "oca-hooks"])
def test_malformed_xml_data_file_is_a_finding(loan_only: Path, tmp_path: Path, check: str) -> None:
    (loan_only / "library_loan" / "views" / "library_loan_views.xml").write_text(
        "<odoo><record>", encoding="utf-8"
    )
    result = run_cli(["check", "--addons-path", str(loan_only), "--checks", check], tmp_path, tmp_path / "c")
    assert result.returncode == 1
    _no_traceback(result)
    assert "library_loan/views/library_loan_views.xml" in result.stdout
    assert "xml-syntax" in result.stdout


def test_broken_linter_configuration_is_a_finding(loan_only: Path, tmp_path: Path) -> None:
    git.Repo.init(loan_only)
    (loan_only / ".flake8").write_text("[flake8]\nmax-line-length = abc\n", encoding="utf-8")
    result = run_cli(
        ["check", "--addons-path", str(loan_only), "--checks", "flake8"], tmp_path, tmp_path / "c"
    )
    assert result.returncode == 1
    _no_traceback(result)
    assert "[flake8 linter-crashed] flake8 failed (exit 1): ValueError: invalid literal" in result.stdout
    assert f"Check the flake8 configuration {loan_only / '.flake8'}" in result.stdout


def test_missing_linter_is_named_with_what_to_install(loan_only: Path, tmp_path: Path) -> None:
    # The environment lacks pylint-odoo (sys.modules entry None makes it unimportable).
    code = (
        "import sys; sys.modules['pylint_odoo'] = None; from assista_mcp.cli import main; "
        f"sys.exit(main(['check', '--addons-path', {str(loan_only)!r}, '--checks', 'pylint', '--no-cache']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={"CI": "true"} | {k: v for k, v in __import__("os").environ.items() if k in ("PATH", "HOME")},
    )
    assert result.returncode == 2  # the environment, not the module: said once for the run
    _no_traceback(result)
    assert "INCOMPLETE: pylint-odoo is not installed" in result.stdout
    assert "tool-missing" not in result.stdout
    assert "pip install pylint-odoo==" in result.stderr  # the version assista-odoo pins


def test_project_config_wins_over_ours(loan_only: Path, tmp_path: Path) -> None:
    long_line = loan_only / "library_loan" / "models" / "long.py"
    long_line.write_text("X = '" + "a" * 100 + "'\n", encoding="utf-8")
    args = ["check", "--addons-path", str(loan_only), "--checks", "flake8", "--no-cache"]
    assert "E501" in run_cli(args, tmp_path, tmp_path / "c").stdout
    git.Repo.init(loan_only)
    config = "[flake8]\nmax-line-length = 200\nper-file-ignores = __init__.py:F401\n"
    (loan_only / "setup.cfg").write_text(config, encoding="utf-8")
    result = run_cli(args, tmp_path, tmp_path / "c")
    assert result.returncode == 0 and "E501" not in result.stdout
