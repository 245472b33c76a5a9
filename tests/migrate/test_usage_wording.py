"""migrate's usage errors read as sentences: the option to fix is named, the series listed once,
and a message ends with its full stop before the hint begins (issue 35)."""

from __future__ import annotations

from pathlib import Path

import git
import pytest

from assista_mcp.cli import main
from odoo_tools.series import SUPPORTED_SERIES


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_an_unsupported_target_names_the_option_and_lists_the_series_once(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    err = _usage_error(capsys, "migrate", str(modules / "v17"), "--to", "21.0")
    assert "--to" in err and "--odoo-series" not in err and "odoo_series" not in err
    assert err.count(SUPPORTED_SERIES[0]) == 1
    err = _usage_error(capsys, "migrate", str(modules / "v17"), "--to", "18.0", "--from", "7")
    assert "--from" in err and "--odoo-series" not in err


def test_a_path_that_is_no_folder_ends_its_sentence(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    err = _usage_error(capsys, "migrate", str(modules / "nowhere"), "--to", "18.0")
    assert "is not a folder. Give module folders" in err


def test_uncommitted_changes_end_their_sentence(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    repo = git.Repo.init(modules)
    repo.index.add(
        [str(p.relative_to(modules)) for p in modules.rglob("*") if p.is_file() and ".git" not in p.parts]
    )
    repo.index.commit("fixtures")
    views = modules / "v16/mig_attrs/views/thing_views.xml"
    views.write_text(views.read_text().replace("<odoo>", "<odoo>\n<!-- a local edit -->", 1))
    err = _usage_error(capsys, "migrate", str(modules / "v16"), "--to", "17.0", "--commit")
    assert "into the migration's commit. Commit or stash them first" in err
    repo.index.add([str(views.relative_to(modules))])
    err = _usage_error(capsys, "migrate", str(modules / "v16"), "--to", "17.0", "--commit")
    assert "into the migration's commit. Commit or unstage them first" in err
