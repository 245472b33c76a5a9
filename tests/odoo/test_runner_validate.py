"""odoo_validate end to end: the stand-in odoo-bin, the real PostgreSQL, the template cache.

Every test asserts (through the ``pg`` fixture) that no database it created is left behind.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from odoo_tools.errors import InvalidInput
from odoo_tools.odoo_log import kinds
from odoo_tools.runs._pg import Pg, PgParams
from odoo_tools.runs._plan import check_modules
from odoo_tools.runs._result import NOT_INSTALLED, TIMEOUT, ValidationResult
from odoo_tools.runs._validate import OdooRunner, RunnerConfig
from tests.odoo.runner_support import processes_mentioning

RunnerFactory = Callable[..., OdooRunner]


@pytest.fixture
def make_runner(pg: Pg, stub_odoo_bin: Path, addons: Path, tmp_path: Path) -> Iterator[RunnerFactory]:
    def make(delay: float = 0.0, **overrides: object) -> OdooRunner:
        values: dict[str, object] = {
            "addons_paths": [addons],
            "cache_dir": tmp_path / "cache",
            "odoo_bin": stub_odoo_bin,
            "odoo_python": sys.executable,  # the stand-in needs psycopg2, like Odoo's own venv
            "db_prefix": pg.prefix,
            "extra_env": {"ASSISTA_STUB_DELAY": str(delay)},
        }
        values.update(overrides)
        runner = OdooRunner(RunnerConfig(**values))  # type: ignore[arg-type]
        made.append(runner)
        return runner

    made: list[OdooRunner] = []
    yield make
    for runner in made:  # templates and spares are the cache's, not leftovers: clear them
        runner.wait_idle()
        runner.cache.clear()


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _kinds(result: ValidationResult) -> set[str]:
    return {f.kind for f in result.findings}


@pytest.mark.anyio
async def test_install_builds_the_template_once_then_hits(make_runner: RunnerFactory, pg: Pg) -> None:
    runner = make_runner()
    first = await runner.validate("install", ["library_loan"])
    assert first.ok, first.findings
    assert [(m.module, m.state, m.ok) for m in first.modules] == [("library_loan", "installed", True)]
    assert first.template.status == "built" and first.exit_code == 0
    assert first.odoo_version.startswith("18.0")
    second = await runner.validate("install", ["library_loan"])
    assert second.ok and second.template.status == "hit"
    assert second.template.name == first.template.name
    assert _read(second.log_path).count("Loading module library_loan") == 1
    assert second.template.spare  # prepared while the first run's odoo-bin worked
    runner.wait_idle()
    # Only the template and the next spare clone remain: the clones themselves were dropped.
    assert pg.list_ours() == [first.template.name, runner.cache.spare_name(first.template.name)]
    assert [t.name for t in runner.cache.templates()] == [first.template.name]
    runner.cache.clear()
    assert pg.list_ours() == []


@pytest.mark.anyio
async def test_editing_the_module_keeps_the_template_editing_a_dependency_does_not(
    make_runner: RunnerFactory,
    addons: Path,
) -> None:
    runner = make_runner()
    built = await runner.validate("install", ["library_loan"])
    model = addons / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text() + "\n# edited\n")
    after_own_edit = await runner.validate("install", ["library_loan"])
    assert after_own_edit.template.status == "hit"
    assert after_own_edit.template.name == built.template.name
    dep = addons / "library_base" / "models" / "library_book.py"
    dep.write_text(dep.read_text() + "\n# edited\n")
    after_dep_edit = await runner.validate("install", ["library_loan"])
    assert after_dep_edit.template.status == "built"
    assert after_dep_edit.template.name != built.template.name
    assert after_dep_edit.ok


@pytest.mark.anyio
async def test_unknown_module_exit_code_zero_is_not_success(make_runner: RunnerFactory) -> None:
    runner = make_runner()
    result = await runner.validate("install", ["library_no_such_module"], use_cache=False)
    assert result.exit_code == 0
    assert not result.ok
    assert result.modules[0].state == "absent"
    assert kinds.UNKNOWN_MODULE in _kinds(result)
    assert result.template.status == "disabled"
    assert runner.cache.templates() == []


@pytest.mark.anyio
async def test_broken_module_reports_findings_at_file_and_line(make_runner: RunnerFactory) -> None:
    runner = make_runner()
    result = await runner.validate("install", ["library_broken"])
    assert not result.ok and result.exit_code == 255
    assert result.modules[0].state != "installed"
    located = [f for f in result.findings if f.severity == "error" and f.path]
    assert located, result.findings
    assert all(f.source == "odoo" and f.hint for f in located)
    assert all(f.path.startswith("library_broken/") for f in located)
    assert NOT_INSTALLED not in _kinds(result)  # the load error already explains it


@pytest.mark.anyio
async def test_tests_pass_and_fail_per_test(make_runner: RunnerFactory, addons: Path) -> None:
    runner = make_runner()
    passing = await runner.validate("test", ["library_base"])
    assert passing.ok, passing.findings
    assert passing.tests and all(t.status == "pass" for t in passing.tests)
    test_file = addons / "library_base" / "tests" / "test_library_book.py"
    test_file.write_text(
        test_file.read_text() + "\n    def test_always_fails(self):\n        self.fail('on purpose')\n"
    )
    failing = await runner.validate("test", ["library_base"])
    assert not failing.ok
    assert failing.modules[0].state == "installed"  # failing tests do not roll the install back
    [bad] = [t for t in failing.tests if t.status != "pass"]
    assert (bad.method, bad.status, bad.path) == (
        "test_always_fails",
        "fail",
        test_file.relative_to(addons).as_posix(),
    )
    assert bad.line is not None
    assert kinds.TEST_FAILURE in _kinds(failing)
    assert failing.template.status == "hit"  # the test file is part of the module, not the template


@pytest.mark.anyio
async def test_upgrade_installs_then_upgrades(make_runner: RunnerFactory) -> None:
    runner = make_runner()
    result = await runner.validate("upgrade", ["library_base", "library_loan"])
    assert result.ok, result.findings
    assert {m.module: m.state for m in result.modules} == {
        "library_base": "installed",
        "library_loan": "installed",
    }
    log = _read(result.log_path)
    assert "-u library_base,library_loan" in log and "-i library_base,library_loan" in log


@pytest.mark.anyio
async def test_dependency_that_fails_to_build_is_reported_and_cleaned_up(
    make_runner: RunnerFactory,
    addons: Path,
    pg: Pg,
) -> None:
    view = addons / "library_base" / "views" / "library_book_views.xml"
    view.write_text(view.read_text().replace("</odoo>", "<record"))  # malformed XML
    runner = make_runner()
    result = await runner.validate("install", ["library_loan"], keep_db=True)
    assert not result.ok
    assert result.template.status == "build_failed"
    assert result.database == ""  # nothing to keep: the modules never got a database
    assert "dependency-build" in _kinds(result)
    assert any(f.module == "library_base" and f.path.startswith("library_base/") for f in result.findings)
    runner.wait_idle()
    assert pg.list_ours() == [] and runner.cache.templates() == []


@pytest.mark.anyio
async def test_two_concurrent_validations_build_one_template(make_runner: RunnerFactory) -> None:
    runner_a, runner_b = make_runner(), make_runner()  # two clients sharing a cache dir
    results = await asyncio.gather(
        runner_a.validate("install", ["library_loan"]), runner_b.validate("test", ["library_loan"])
    )
    assert all(r.ok for r in results), [r.findings for r in results]
    assert sorted(r.template.status for r in results) == ["built", "hit"]
    assert len({r.template.name for r in results}) == 1


@pytest.mark.anyio
async def test_cancel_kills_odoo_and_drops_the_database(make_runner: RunnerFactory, pg: Pg) -> None:
    runner = make_runner(delay=0.3)
    installing = asyncio.Event()

    def progress(k: int, n: int, message: str) -> None:
        if message.startswith("install"):
            installing.set()

    task = asyncio.create_task(
        runner.validate("install", ["library_base"], use_cache=False, on_progress=progress)
    )
    await asyncio.wait_for(installing.wait(), 120)
    assert processes_mentioning(pg.prefix)  # odoo-bin is running on our database
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert pg.list_ours() == []
    assert processes_mentioning(pg.prefix) == []


@pytest.mark.anyio
async def test_timeout_stops_odoo_reports_it_and_drops_the_database(
    make_runner: RunnerFactory, pg: Pg
) -> None:
    runner = make_runner(delay=0.5, timeout=1.0)
    result = await runner.validate("install", ["library_base"], use_cache=False)
    assert result.timed_out and not result.ok
    assert TIMEOUT in _kinds(result)
    runner.wait_idle()  # a finished run's database is dropped after the answer
    assert pg.list_ours() == []
    assert processes_mentioning(pg.prefix) == []


@pytest.mark.anyio
async def test_keep_db_keeps_the_database_for_inspection(make_runner: RunnerFactory, pg: Pg) -> None:
    runner = make_runner()
    result = await runner.validate("install", ["library_base"], use_cache=False, keep_db=True)
    assert result.ok and result.database
    assert pg.module_states(result.database, ["library_base"]) == {"library_base": "installed"}
    runner.cache.drop_database(result.database)


@pytest.mark.anyio
async def test_password_reaches_odoo_only_through_its_environment(
    make_runner: RunnerFactory,
) -> None:
    runner = make_runner(pg=PgParams(password="pw-not-on-argv"))  # trusted socket: ignored by the server
    result = await runner.validate("install", ["library_base"], use_cache=False)
    assert result.ok
    log = _read(result.log_path)
    assert "# assista-odoo install:" in log  # the command line is recorded...
    assert "pw-not-on-argv" not in log  # ...without the password


@pytest.mark.anyio
async def test_bad_module_names_are_refused_before_anything_runs(make_runner: RunnerFactory) -> None:
    runner = make_runner()
    with pytest.raises(InvalidInput, match="No module"):
        await runner.validate("install", [" "])
    with pytest.raises(InvalidInput, match="Not a module name"):
        await runner.validate("install", ["../etc"])
    with pytest.raises(InvalidInput, match="Not a module name: x y"):
        await runner.validate("install", ["library_base, x y"])


def test_module_lists_may_be_comma_separated_and_repeat() -> None:
    assert check_modules(["library_loan, library_base", "library_loan", " ,"]) == [
        "library_loan",
        "library_base",
    ]


def test_sync_form_returns_with_the_database_dropped(make_runner: RunnerFactory, pg: Pg) -> None:
    result = make_runner().validate_sync("install", ["library_base"], use_cache=False)
    assert result.ok and result.duration_seconds > 0
    assert pg.list_ours() == []


@pytest.mark.anyio
async def test_prune_never_touches_a_running_validation(make_runner: RunnerFactory, pg: Pg) -> None:
    runner = make_runner(delay=0.2)
    installing = asyncio.Event()

    def progress(k: int, n: int, message: str) -> None:
        if message.startswith("install"):
            installing.set()

    task = asyncio.create_task(
        runner.validate("install", ["library_base"], use_cache=False, on_progress=progress)
    )
    await asyncio.wait_for(installing.wait(), 120)
    [running] = pg.list_ours()
    assert await asyncio.to_thread(make_runner().cache.prune_runs) == []  # another process's prune
    assert pg.exists(running)
    assert (await task).ok
