"""A linter run that did not complete (crashed, timed out, absent) is reported but never cached.

Otherwise a passing hiccup (a timeout on a loaded machine, a killed process) would be replayed from
the cache on every run until a file of the module changed.
"""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint import LintCache
from tests.lint.conftest import run_cli

CRASH = "import sys\nsys.stderr.write('MemoryError: the machine ran out of memory\\n')\nsys.exit(1)\n"


def test_a_crash_is_not_replayed_by_the_next_run(loan_only: Path, tmp_path: Path) -> None:
    # Stand-in linters (both flake8 and ruff: whichever this series uses) that die, first in line on
    # the linters' PYTHONPATH; the next run has the real ones again, with the same files and cache.
    crashing = tmp_path / "crashing"
    for name in ("flake8", "ruff"):
        (crashing / name).mkdir(parents=True)
        (crashing / name / "__init__.py").write_text("", encoding="utf-8")
        (crashing / name / "__main__.py").write_text(CRASH, encoding="utf-8")
    args = ["check", "--addons-path", str(loan_only), "--checks", "flake8"]
    cache = tmp_path / "cache"

    first = run_cli(args, tmp_path, cache, extra_env={"PYTHONPATH": str(crashing)})
    assert "linter-crashed" in first.stdout and "MemoryError" in first.stdout, first.stdout + first.stderr

    second = run_cli(args, tmp_path, cache)
    assert "linter-crashed" not in second.stdout, second.stdout
    assert second.returncode == 0, second.stdout + second.stderr


def test_the_cache_keeps_complete_answers_and_refuses_incomplete_ones(tmp_path: Path) -> None:
    cache = LintCache(tmp_path)
    finding = Finding(source="flake8", code="E501", severity="warning", module="m", path="a.py", message="x")
    crashed = finding.model_copy(update={"code": "linter-crashed", "message": "flake8 timed out"})
    missing = finding.model_copy(update={"code": "tool-missing", "message": "flake8 is not installed"})
    cache.put("aa" + "0" * 62, [finding])
    cache.put("bb" + "0" * 62, [finding, crashed])
    cache.put("cc" + "0" * 62, [missing])
    assert cache.get("aa" + "0" * 62) == [finding]
    assert cache.get("bb" + "0" * 62) is None
    assert cache.get("cc" + "0" * 62) is None
