"""CLI: doctor, templates list|clear, odoo install|test, and check --install/--test (stand-in odoo-bin)."""

from __future__ import annotations

import json
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from assista_mcp.cli import build_parser, main
from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads


@pytest.fixture
def odoo_flags(
    isolated_env: Path, addons: Path, stub_odoo_bin: Path, pg: Pg, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[str]]:
    """Flags for the stand-in; the templates a test leaves in the cache are cleared afterwards."""
    monkeypatch.setenv("ASSISTA_DB_PREFIX", pg.prefix)
    flags = ["--addons-path", str(addons), "--odoo-bin", str(stub_odoo_bin), "--odoo-python", sys.executable]
    yield flags
    join_spare_threads()
    assert main(["templates", "clear", *flags]) == 0


def test_doctor_passes_and_prints_each_check(
    odoo_flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", *odoo_flags]) == 0
    out = capsys.readouterr().out
    assert "ok   postgresql-createdb" in out and "ok   odoo-version: Odoo 18.0" in out
    assert out.rstrip().endswith("all checks passed")


def test_doctor_fails_with_a_fix_line(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(addons / "missing")
    code = main(["doctor", "--addons-path", str(addons), "--odoo-bin", missing, "--format", "json"])
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    [odoo_bin] = [c for c in report["checks"] if c["name"] == "odoo-bin"]
    assert odoo_bin["ok"] is False and "--odoo-bin" in odoo_bin["fix"]


def test_odoo_install_then_templates_list_and_clear(
    odoo_flags: list[str], pg: Pg, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odoo", "install", "library_loan", "--format", "json", *odoo_flags]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and result["template"]["status"] == "built"
    assert main(["templates", "list", "--format", "json", *odoo_flags]) == 0
    [template] = json.loads(capsys.readouterr().out)
    assert template["name"] == result["template"]["name"] and "library_base" in template["modules"]
    join_spare_threads()  # the run's own database is dropped after the answer
    assert main(["templates", "clear", *odoo_flags]) == 0
    assert "dropped 1 template(s)" in capsys.readouterr().out
    assert pg.list_ours() == []


def test_odoo_command_exit_1_on_a_broken_module(
    odoo_flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odoo", "install", "library_broken", "--no-cache", *odoo_flags]) == 1
    out = capsys.readouterr().out
    assert "not installed cleanly" in out and "library_broken/__manifest__.py" in out
    assert "hint:" in out


def test_check_install_adds_odoo_findings_to_the_gate(
    odoo_flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["check", "library_broken", "--install", "--checks", "flake8", "--format", "json", *odoo_flags]
    )
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    odoo = [f for f in report["findings"] if f["source"] == "odoo"]
    assert odoo and all(f["module"] == "library_broken" for f in odoo)


def test_check_test_passes_for_a_healthy_module(
    odoo_flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "library_base", "--test", "--checks", "flake8", "--format", "junit", *odoo_flags])
    out = capsys.readouterr().out
    assert code == 0, out
    assert 'name="library_base.odoo-test"' in out


def test_check_install_findings_fail_the_junit_and_sarif_reports(
    odoo_flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # A CI dashboard reads JUnit: the red job must show red cases with the reason in them.
    args = ["check", "library_broken", "--install", "--checks", "flake8", *odoo_flags]
    assert main([*args, "--format", "junit"]) == 1
    suites = ET.fromstring(capsys.readouterr().out)
    cases = {case.get("name"): case for case in suites.iter("testcase")}
    failure = cases["library_broken.odoo-install"].find("failure")
    assert failure is not None and "library_broken" in (failure.text or "")
    assert int(suites.get("failures", "0")) >= 1
    assert main([*args, "--format", "sarif"]) == 1
    runs = {run["tool"]["driver"]["name"]: run for run in json.loads(capsys.readouterr().out)["runs"]}
    assert "odoo-install" not in runs and runs["odoo"]["results"]
    assert runs["odoo"]["tool"]["driver"]["version"] == "18.0"


def test_check_test_failure_fails_the_junit_case(
    odoo_flags: list[str], addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = addons / "library_base" / "tests" / "test_library_book.py"
    tests.write_text(tests.read_text() + "\n    def test_broken(self):\n        self.fail('no')\n")
    args = ["check", "library_base", "--test", "--checks", "flake8", "--format", "junit", *odoo_flags]
    assert main(args) == 1
    suites = ET.fromstring(capsys.readouterr().out)
    cases = {case.get("name"): case for case in suites.iter("testcase")}
    failure = cases["library_base.odoo-test"].find("failure")
    assert failure is not None and "test_broken" in (failure.text or "")


def test_missing_odoo_bin_is_a_usage_error_for_check_install(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "library_base", "--install", "--checks", "flake8", "--addons-path", str(addons),
                 "--odoo-bin", str(addons / "nope")])  # fmt: skip
    assert code == 2
    assert "--odoo-bin" in capsys.readouterr().err


def test_doctor_names_missing_python_dependencies_with_a_pip_line(
    odoo_flags: list[str], addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = addons / "library_base" / "__manifest__.py"
    manifest.write_text(
        manifest.read_text().replace(
            '"installable": True,',
            '"installable": True,\n    "external_dependencies": {"python": ["json", "no_such_pkg_zz"]},',
        )
    )
    assert main(["doctor", "--format", "json", *odoo_flags]) == 1
    captured = capsys.readouterr()
    [deps] = [c for c in json.loads(captured.out)["checks"] if c["name"] == "python-dependencies"]
    assert not deps["ok"]
    assert "no_such_pkg_zz (needed by library_base)" in deps["detail"] and "json" not in deps["detail"]
    assert deps["fix"].startswith(f"{sys.executable} -m pip install no_such_pkg_zz")


def test_templates_prune_drops_leftovers_of_a_killed_run(
    odoo_flags: list[str], pg: Pg, capsys: pytest.CaptureFixture[str]
) -> None:
    leftover = f"{pg.prefix}install_deadbeef"
    pg.create(leftover)
    assert main(["templates", "prune", *odoo_flags]) == 0
    assert leftover in capsys.readouterr().out
    assert pg.list_ours() == []


@pytest.mark.parametrize(
    "argv",
    [["doctor"], ["templates", "list"], ["odoo", "install", "x"], ["sessions", "list"], ["check"]],
)
def test_every_reporting_command_takes_the_same_format_switch(argv: list[str]) -> None:
    parser = build_parser()
    args = parser.parse_args([*argv, "--format", "json"])
    assert args.format == "json"


def test_doctor_shows_the_decisive_line_of_a_failing_odoo_bin(
    isolated_env: Path, addons: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A long traceback used to be cut to its last 300 characters, mid-word ("nt call last):").
    script = tmp_path / "odoo-bin"
    script.write_text(
        f"#!{sys.executable}\n"
        "def deep(n):\n"
        "    if n == 0:\n"
        "        raise ModuleNotFoundError(\"No module named 'werkzeug'\")\n"
        "    deep(n - 1)\n"
        "deep(40)\n"
    )
    script.chmod(0o755)
    assert main(["doctor", "--addons-path", str(addons), "--odoo-bin", str(script), "--format", "json"]) == 1
    [version] = [c for c in json.loads(capsys.readouterr().out)["checks"] if c["name"] == "odoo-version"]
    decisive = "ModuleNotFoundError: No module named 'werkzeug'"
    assert version["detail"] == f"{script} --version failed (exit 1): {decisive}"


def test_doctor_failure_says_what_works_without_odoo_and_names_pgpassword_for_auth(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PGPASSWORD", "surely-not-the-password")
    monkeypatch.setenv("PGHOST", "127.0.0.1")  # over TCP, so the server asks for the password
    monkeypatch.setenv("PGUSER", "assista_no_such_role_zz")
    assert main(["doctor", "--addons-path", str(addons), "--odoo-bin", str(addons / "missing")]) == 1
    out = capsys.readouterr().out
    assert "`assista-odoo check` and the knowledge and file tools" in out
    assert "PGPASSWORD" in out.split("FAIL postgresql:", 1)[1].split("\n", 2)[1]
    assert "odoo_bin" in out and "assista-odoo.toml" in out


def test_odoo_bin_beside_odoo_conf_is_found_with_an_addons_path_too(
    isolated_env: Path, addons: Path, stub_odoo_bin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An Odoo source (odoo-bin beside its addons/) named by odoo.conf; --addons-path then only
    # says which modules to work on, not where Odoo is.
    source = tmp_path / "odoo_src"
    (source / "addons").mkdir(parents=True)
    (source / "odoo-bin").symlink_to(stub_odoo_bin)
    conf = source / "odoo.conf"
    conf.write_text(f"[options]\naddons_path = {source / 'addons'},{addons}\n", encoding="utf-8")
    args = ["doctor", "--odoo-config", str(conf), "--format", "json", "--odoo-python", sys.executable]
    main(args)  # odoo.conf alone: found beside its addons
    alone = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert alone["odoo-bin"]["ok"] and alone["odoo-bin"]["detail"] == str(source / "odoo-bin")
    main([*args, "--addons-path", str(addons)])
    both = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert both["odoo-bin"]["ok"], both["odoo-bin"]
    assert both["odoo-bin"]["detail"] == str(source / "odoo-bin")


def test_odoo_install_of_an_unknown_module_is_a_usage_error_before_odoo_starts(
    odoo_flags: list[str], pg: Pg, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    assert main(["odoo", "install", "library_base,nosuch", "--no-cache", *odoo_flags]) == 2
    assert time.monotonic() - started < 2  # the stand-in's run alone takes longer than this
    assert "nosuch" in capsys.readouterr().err
    assert pg.list_ours() == []  # no database was made: Odoo never started
    # a core module known from the bundled list (no Odoo source here) is no usage error
    assert main(["odoo", "install", "base", "--no-cache", "--format", "json", *odoo_flags]) == 0
