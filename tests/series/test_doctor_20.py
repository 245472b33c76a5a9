"""doctor on an Odoo 20.0: its Python and PostgreSQL needs, said exactly, and runs unverified."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from odoo_tools.addons import discover_addons
from odoo_tools.runs import RunnerConfig, run_doctor
from odoo_tools.runs._preflight import preflight
from odoo_tools.series import series_facts

pytestmark = pytest.mark.anyio


def _odoo_20(tmp_path: Path) -> Path:
    script = tmp_path / "odoo-bin"
    script.write_text(f"#!{sys.executable}\nprint('Odoo Server 20.0-20260928')\n", encoding="utf-8")
    script.chmod(0o755)
    return script


async def test_doctor_says_what_20_needs(tmp_path: Path, addons: Path) -> None:
    config = RunnerConfig(addons_paths=[addons], cache_dir=tmp_path / "cache", odoo_bin=_odoo_20(tmp_path))
    checks = {c.name: c for c in (await run_doctor(config)).checks}
    assert checks["odoo-version"].ok
    assert "series 20.0" in checks["odoo-version"].detail
    assert "20.0 runs are unverified" in checks["odoo-version"].detail
    python = checks["odoo-python"]
    ours = sys.version_info[:2]
    assert python.ok == (ours >= (3, 12))
    if ours < (3, 12):
        assert "is too old: Odoo 20.0 supports Python 3.12 to 3.14" in python.detail
        assert "3.12 to 3.14" in python.fix
    server = re.match(r"PostgreSQL (\d+)", checks["postgresql"].detail)
    assert server is not None, checks["postgresql"].detail
    version = checks["postgresql-version"]
    assert version.ok == (int(server.group(1)) >= 16)
    if not version.ok:
        assert "older than Odoo 20.0's minimum, 16" in version.detail and "16 or newer" in version.fix


async def test_doctor_refuses_a_series_it_does_not_support(tmp_path: Path, addons: Path) -> None:
    script = _odoo_20(tmp_path)
    script.write_text(script.read_text().replace("20.0-20260928", "21.0"))
    config = RunnerConfig(addons_paths=[addons], cache_dir=tmp_path / "cache", odoo_bin=script)
    check = next(c for c in (await run_doctor(config)).checks if c.name == "odoo-version")
    assert (
        not check.ok
        and "series 21.0 is not supported (supported are 16.0, 17.0, 18.0, 19.0, 20.0)" in check.detail
    )


def test_python_and_postgresql_ranges_per_series() -> None:
    facts = series_facts("20.0")
    assert facts.python_problem((3, 11, 9)) == (
        False,
        "Python 3.11.9 is too old: Odoo 20.0 supports Python 3.12 to 3.14 (an older one fails at start)",
    )
    assert facts.python_problem((3, 13, 1)) == (True, "")
    assert (
        facts.python_problem((3, 15, 0))[0] and "Odoo logs a warning" in facts.python_problem((3, 15, 0))[1]
    )
    assert facts.postgresql_problem(16) == "" and "minimum, 16" in facts.postgresql_problem(15)
    assert series_facts("18.0").postgresql_problem(9) == ""  # 18.0 checks no minimum
    assert series_facts("17.0").python_problem((3, 13, 0)) == (True, "")  # 17.0 declares no maximum


async def test_a_run_on_20_with_an_older_python_stops_before_any_database(addons: Path) -> None:
    found = await preflight(
        discover_addons([addons]),
        ["library_base"],
        python=sys.executable,
        roots=[addons],
        env={"PATH": "/usr/bin:/bin"},
        facts=series_facts("20.0"),
    )
    if sys.version_info[:2] >= (3, 12):
        assert not [f for f in found if f.kind == "python-error"]
        return
    assert [(f.kind, f.severity) for f in found] == [("python-error", "error")]
    assert "supports Python 3.12 to 3.14" in found[0].message and "3.12 to 3.14" in found[0].hint
