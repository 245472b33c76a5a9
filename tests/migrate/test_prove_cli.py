"""``assista-odoo migrate --write --prove`` of several modules against the stand-in odoo-bin (an
Odoo 18.0 at the process boundary): what the report says of a module whose dependency of the same
run did not install."""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads, pg, stub_odoo_bin

__all__ = ["pg", "stub_odoo_bin"]


def _module(root: Path, name: str, depends: list[str], init: str, test: bool = False) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    manifest = {"name": name, "version": "17.0.1.0.0", "license": "LGPL-3", "depends": depends}
    (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
    (folder / "__init__.py").write_text(init)
    if test:
        (folder / "tests").mkdir()
        (folder / "tests/__init__.py").write_text("from . import test_it\n")
        (folder / "tests/test_it.py").write_text(
            "from odoo.tests import TransactionCase\n\n\n"
            "class TestIt(TransactionCase):\n    def test_it(self):\n        pass\n"
        )


@pytest.fixture
def flags(
    isolated_env: Path, stub_odoo_bin: Path, pg: Pg, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[list[str]]:
    monkeypatch.setenv("ASSISTA_DB_PREFIX", pg.prefix)
    monkeypatch.setenv("ASSISTA_STUB_DELAY", "0")
    flags = ["--odoo-bin", str(stub_odoo_bin), "--odoo-python", sys.executable]
    yield flags
    join_spare_threads()
    assert main(["templates", "clear", "--addons-path", str(tmp_path / "repo"), *flags]) == 0


def test_a_module_whose_dependency_of_the_run_did_not_install_is_blocked_by_it(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    _module(repo, "mig_broken", ["base"], "from . import gone\n")  # no gone.py: the install fails
    _module(repo, "mig_child", ["mig_broken"], "", test=True)
    _module(repo, "mig_alone", ["base"], "", test=True)
    argv = ["migrate", str(repo), "--to", "18.0", "--write", "--prove", "--no-diff", *flags]
    assert main([*argv, "--format", "json"]) == 1
    captured = capsys.readouterr()
    report = {m["module"]: m for m in json.loads(captured.out)["modules"]}
    assert [m for m in report] == ["mig_alone", "mig_broken", "mig_child"]  # a dependency first
    assert report["mig_broken"]["proof"]["verdict"] == "install-failed"
    assert report["mig_alone"]["proof"]["verdict"] == "passed"
    child = report["mig_child"]["proof"]
    # not installed: its install would stop on mig_broken's error and read as its own failure
    assert (child["verdict"], child["blocked_by"], child["first_failure"]) == ("blocked", ["mig_broken"], "")
    assert "proving mig_child" not in captured.err and report["mig_child"]["depends"] == ["mig_broken"]

    for name in ("mig_broken", "mig_child", "mig_alone"):  # back to 17.0 for the text report
        manifest = repo / name / "__manifest__.py"
        manifest.write_text(manifest.read_text().replace("18.0.1.0.0", "17.0.1.0.0"))
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "  proof: blocked by mig_broken (migrated in this run, not installed on 18.0)" in out
    assert out.rstrip().endswith(
        "3 module(s) to 18.0 (written): 0 with errors, 0 with warnings; "
        "proof: 1 blocked, 1 install-failed, 1 passed"
    )


def test_an_odoo_of_another_series_is_refused_before_anything_is_written(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    _module(repo, "mig_alone", ["base"], "")
    manifest = repo / "mig_alone/__manifest__.py"
    before = manifest.read_text()
    # the stand-in is an Odoo 18.0: the modules were written to 19.0, then the run stopped
    assert main(["migrate", str(repo), "--to", "19.0", "--write", "--prove", *flags]) == 2
    err = capsys.readouterr().err
    assert "the configured Odoo is 18.0" in err and "not 19.0" in err and "Traceback" not in err
    assert manifest.read_text() == before


def test_a_module_migrated_alone_is_proved_without_its_siblings(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """OCA's workflow: one module of a 17.0 repository at a time. The sibling still at 17.0 made
    Odoo 18.0 refuse every install ("Invalid version '17.0.1.0.0'") while it sat on the addons path;
    the proof now sees the module and its dependency closure only."""
    repo = tmp_path / "repo"
    _module(repo, "hr_study", ["hr_base"], "", test=True)
    _module(repo, "hr_base", ["base"], "")  # its dependency, already ported by hand
    manifest = repo / "hr_base/__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.1.0.0", "18.0.1.0.0"))
    _module(repo, "hr_sibling", ["base"], "")  # still 17.0, not in the run
    (repo / "hr_sibling/__init__.py").write_text("from . import gone\n")  # and broken: never loaded
    temp = tmp_path / "temp"  # where the proof's private folder of links goes
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    argv = ["migrate", str(repo / "hr_study"), "--to", "18.0", "--write", "--prove", "--no-diff", *flags]
    assert main([*argv, "--format", "json"]) == 0
    proof = json.loads(capsys.readouterr().out)["modules"][0]["proof"]
    assert (proof["verdict"], proof["tests_run"], proof["findings"]) == ("passed", 1, [])
    assert "17.0.1.0.0" in (repo / "hr_sibling/__manifest__.py").read_text()  # untouched
    assert sorted(p.name for p in repo.iterdir()) == ["hr_base", "hr_sibling", "hr_study"]
    assert list(temp.iterdir()) == []  # the links are gone, what they led to stays
