"""Usage errors of the CLI: a clear message and exit 2, decided before any work, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.cli import main
from tests.read_only import read_only


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "read_only"
    folder.mkdir()
    with read_only(folder):
        yield folder


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the CLI; it must end with exit 2 and return what it said on stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own usage errors
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.out + captured.err
    return captured.err


def test_output_into_a_missing_folder_is_refused_before_the_check_runs(
    isolated_env: Path, addons: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no_such_folder" / "report.xml"
    err = _usage_error(capsys, "check", "--addons-path", str(addons), "--format", "junit", "-o", str(target))
    assert f"{target.parent} does not exist" in err
    assert not target.parent.exists()


def test_output_into_a_read_only_folder_is_a_usage_error(
    isolated_env: Path, addons: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _usage_error(capsys, "check", "--addons-path", str(addons), "-o", str(read_only_folder / "r.txt"))
    assert "permission denied" in err
    err = _usage_error(capsys, "doctor", "--addons-path", str(addons), "-o", str(read_only_folder / "d.txt"))
    assert "permission denied" in err


def test_doctor_output_into_a_missing_folder(
    isolated_env: Path, addons: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _usage_error(capsys, "doctor", "--addons-path", str(addons), "-o", str(tmp_path / "nope" / "d.txt"))
    assert "does not exist" in err


def test_sessions_export_into_a_read_only_folder(
    isolated_env: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SessionStore.in_home(isolated_env)
    session = store.create(model="openai/x", mode="auto-edit", title="t")
    store.close()
    err = _usage_error(capsys, "sessions", "export", session.id, "-o", str(read_only_folder / "s.md"))
    assert "permission denied" in err


def test_a_baseline_that_cannot_be_written_is_refused_before_the_check_runs(
    isolated_env: Path, addons: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = read_only_folder / "baseline.json"
    err = _usage_error(capsys, "check", "--addons-path", str(addons), "--baseline", str(baseline))
    assert "--baseline" in err and "permission denied" in err


def test_check_without_a_path_inside_a_module_checks_only_that_module(
    isolated_env: Path, addons: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "none = the current folder": a broken sibling (library_broken) is not this module's failure.
    monkeypatch.chdir(addons / "library_base" / "models")
    code = main(["check", "--checks", "static", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["modules"] == ["library_base"] and code == 0
    monkeypatch.chdir(addons)  # a folder of modules: all of them, as before
    assert main(["check", "--checks", "static", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["modules"] == [
        "library_base",
        "library_broken",
        "library_loan",
    ]


def test_output_piped_into_head_ends_quietly(isolated_env: Path, tmp_path: Path) -> None:
    store = SessionStore.in_home(isolated_env)
    session = store.create(model="openai/x", mode="auto-edit", title="long")
    store.add_message(session.id, {"role": "user", "content": "line of text\n" * 200_000})  # 2.6 MB
    store.close()
    env = {**os.environ, "ASSISTA_HOME": str(isolated_env)}
    for words in (f"sessions show {session.id}", "sessions list"):
        command = f"{sys.executable} -m assista_mcp {words} 2>{tmp_path / 'err'} | head -1"
        result = subprocess.run(command, shell=True, env=env, capture_output=True, text=True, timeout=60)
        err = (tmp_path / "err").read_text()
        assert result.returncode == 0 and result.stdout.strip(), (words, result)
        assert "Traceback" not in err and "BrokenPipe" not in err, (words, err)


def test_an_empty_task_is_refused_before_any_model_call(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The endpoint does not exist: reaching it would be a connection error, not a usage error.
    err = _usage_error(
        capsys,
        "run",
        "  ",
        "--addons-path",
        str(addons),
        "--model",
        "openai/x",
        "--api-base",
        "http://127.0.0.1:9",
    )
    assert "task is empty" in err


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--with-dependents"], "--with-dependents"),
        (["--jobs", "0"], "must be at least 1"),
        (["--odoo-series", "16.0"], "contradicts"),
    ],
)
def test_check_flags_that_would_be_ignored_are_usage_errors(
    isolated_env: Path, addons: Path, flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _usage_error(capsys, "check", "--addons-path", str(addons), "--checks", "static", *flags)
    assert said in err


def test_odoo_series_agreeing_with_the_manifests_is_fine(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(addons / "library_base"), "--checks", "static", "--odoo-series", "18.0"])
    assert code == 0, capsys.readouterr()
