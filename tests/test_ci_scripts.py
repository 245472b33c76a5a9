"""The CI scripts: setup-tests.sh stops when the tests would not reach its cluster; .ci/run shows the skips.

setup-tests.sh runs for real on a copy of the repository's scripts; the Debian cluster tools, ``su`` and
``install.sh`` are stand-ins on PATH (the process boundary) that describe a cluster listening on 5433
while the tests' PG* variables point elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.services import skip_missing_service

REPO = Path(__file__).resolve().parent.parent

STAND_INS = {
    "pg_lsclusters": "echo '15 main 5433 online postgres /var/lib/postgresql/15/main x.log'",
    "su": "echo 1",  # psql as postgres: the role exists
    "sudo": 'exec "$@"',
    "apt-get": "exit 0",
    "pg_createcluster": "exit 0",
    "pg_ctlcluster": "exit 0",
}


def _run_setup(tmp_path: Path, **pg_env: str) -> subprocess.CompletedProcess[str]:
    if not list(Path("/usr/lib/postgresql").glob("*/bin/postgres")):
        skip_missing_service("Debian's postgresql package (scripts/setup-tests.sh installs it)")
    fake_repo = tmp_path / "repo"
    (fake_repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup-tests.sh", fake_repo / "scripts" / "setup-tests.sh")
    (fake_repo / "scripts" / "install.sh").write_text("echo 'install: (stand-in)'\n", encoding="utf-8")
    (fake_repo / ".venv" / "bin").mkdir(parents=True)
    (fake_repo / ".venv" / "bin" / "python").symlink_to(sys.executable)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in STAND_INS.items():
        tool = bin_dir / name
        tool.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        tool.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env.update(PATH=f"{bin_dir}:{env['PATH']}", **pg_env)
    script = fake_repo / "scripts" / "setup-tests.sh"
    return subprocess.run(["bash", str(script)], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_a_cluster_the_tests_cannot_reach_fails_loudly(tmp_path: Path) -> None:
    run = _run_setup(tmp_path, PGHOST="127.0.0.1", PGPORT="9")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "ERROR: the tests would not reach this cluster" in run.stdout
    assert "export PGPORT=5433" in run.stdout


FAKE_PYTEST = """#!/bin/sh
if [ "$1" = .ci/coverage_summary.py ]; then
  echo "coverage: total 42.0 %"
  exit ${FAKE_COVERAGE_STATUS:-0}
fi
echo "CI seen by pytest: $CI"
echo "coverage started by: $COVERAGE_PROCESS_START"
echo "SKIPPED [1] tests/odoo/test_real_odoo.py:45: set ASSISTA_TEST_ODOO_BIN to run against a real Odoo"
echo "SKIPPED [2] tests/agent/test_model_live.py:20: set ASSISTA_TEST_MODEL to run against a real model"
echo "============ 7 passed, 3 skipped in 1.23s ============"
exit ${FAKE_STATUS:-0}
"""


def _run_ci(tmp_path: Path, **env_extra: str) -> subprocess.CompletedProcess[str]:
    fake_repo = tmp_path / "repo"
    for folder in (".ci", "scripts", ".venv/bin"):
        (fake_repo / folder).mkdir(parents=True)
    shutil.copy(REPO / ".ci" / "run", fake_repo / ".ci" / "run")
    (fake_repo / "scripts" / "setup-tests.sh").write_text("echo 'setup-tests: stand-in'\n", encoding="utf-8")
    python = fake_repo / ".venv" / "bin" / "python"
    python.write_text(FAKE_PYTEST, encoding="utf-8")
    python.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CI"} | env_extra
    return subprocess.run(["bash", str(fake_repo / ".ci" / "run")], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_ci_run_sets_ci_and_prints_the_skip_summary(tmp_path: Path) -> None:
    run = _run_ci(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "CI seen by pytest: true" in run.stdout
    assert f"coverage started by: {tmp_path / 'repo' / 'pyproject.toml'}" in run.stdout
    assert "coverage: total 42.0 %" in run.stdout
    assert "CI: pytest said: ============ 7 passed, 3 skipped in 1.23s" in run.stdout
    assert "CI: 2 skip reason(s)" in run.stdout
    assert "CI:   SKIPPED [2] tests/agent/test_model_live.py:20: set ASSISTA_TEST_MODEL" in run.stdout
    assert run.stdout.rstrip().endswith("CI: ok (7 tests passed)")


def test_ci_run_fails_when_pytest_fails(tmp_path: Path) -> None:
    run = _run_ci(tmp_path, FAKE_STATUS="1")
    assert run.returncode == 1
    assert "CI: failed (exit 1)" in run.stdout


def test_ci_run_fails_below_the_coverage_floor(tmp_path: Path) -> None:
    run = _run_ci(tmp_path, FAKE_COVERAGE_STATUS="1")
    assert run.returncode == 1
    assert run.stdout.rstrip().endswith("CI: failed (coverage)")


def test_coverage_is_measured_in_child_processes_and_judged_against_the_floor(tmp_path: Path) -> None:
    # What .ci/run does, on one small child process: the .pth file coverage installs starts it.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE")}
    env.update(COVERAGE_PROCESS_START=str(REPO / "pyproject.toml"), COVERAGE_FILE=str(tmp_path / ".coverage"))
    child = subprocess.run([sys.executable, "-c", "import odoo_tools.findings"], env=env, timeout=60)
    assert child.returncode == 0
    assert list(tmp_path.glob(".coverage.*")), "the child process wrote no coverage data"
    env.pop("COVERAGE_PROCESS_START")
    summary = subprocess.run([sys.executable, str(REPO / ".ci" / "coverage_summary.py")], env=env,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert "coverage: total " in summary.stdout, summary.stdout + summary.stderr
    assert "assista_mcp/server/mcp_server.py" in summary.stdout  # never imported: 0 %, listed
    assert summary.returncode == 1  # one import is far below the suite's floor
    assert "is below the floor" in summary.stdout
