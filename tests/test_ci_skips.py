"""In CI a test that skips because PostgreSQL (or another service the suite needs) is missing fails the run.

Each case runs a real pytest over a small test file with the suite's own hook, with and without ``CI``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

SAMPLE = """
import os
import pytest
from tests.services import skip_missing_service
from tests.odoo.runner_support import pg  # the real fixture, pointed at a port nothing listens on

def test_needs_a_database(pg):
    assert pg

def test_needs_a_service():
    skip_missing_service("PostgreSQL not reachable: connection refused")

OPT_IN = "set ASSISTA_TEST_ODOO_BIN to run against a real Odoo"

@pytest.mark.skipif(not os.environ.get("ASSISTA_TEST_ODOO_BIN"), reason=OPT_IN)
def test_opt_in():
    pass

def test_plain():
    pass
"""


def _run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    test_file = tmp_path / "test_sample.py"
    test_file.write_text(SAMPLE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "ASSISTA_TEST_ODOO_BIN")}
    env.update(PGHOST="127.0.0.1", PGPORT="9", PGCONNECT_TIMEOUT="2", PYTHONPATH=str(REPO))
    if ci is not None:
        env["CI"] = ci
    command = [sys.executable, "-m", "pytest", "-p", "tests.services", "-p", "no:cacheprovider", "-rA", "-q",
               "-c", os.devnull, "--rootdir", str(tmp_path), str(test_file)]  # fmt: skip
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_without_ci_a_missing_database_is_a_skip(tmp_path: Path) -> None:
    run = _run(tmp_path, ci=None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 3 skipped" in run.stdout
    assert "PostgreSQL not reachable" in run.stdout


@pytest.mark.parametrize("ci", ["true", "1"])
def test_in_ci_a_missing_database_fails_but_an_opt_in_test_still_skips(tmp_path: Path, ci: str) -> None:
    run = _run(tmp_path, ci=ci)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed, 1 skipped, 1 error" in run.stdout
    assert "ERROR" in run.stdout and "test_needs_a_database" in run.stdout
    assert "FAILED" in run.stdout and "test_needs_a_service" in run.stdout
    assert "SKIPPED" in run.stdout and "ASSISTA_TEST_ODOO_BIN" in run.stdout
    assert "CI is set: a test may not skip because a service is missing" in run.stdout


def test_ci_false_is_not_ci(tmp_path: Path) -> None:
    assert _run(tmp_path, ci="false").returncode == 0


def test_the_suite_uses_the_hook() -> None:
    import tests.conftest as root
    from tests.services import pytest_runtest_makereport

    assert root.pytest_runtest_makereport is pytest_runtest_makereport
