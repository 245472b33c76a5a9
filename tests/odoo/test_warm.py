"""The warm worker against the stand-in odoo-bin and its ``odoo`` package.

The worker imports the stand-in's ``odoo`` package and forks ``odoo.cli.main()`` per run: the same
odoo-bin code as a cold run, in a forked child. Each test checks the verdict against the cold
path's, which path ran (``result.warm``), and that no process and no database is left behind.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from assista_mcp.config.loading import load_settings
from assista_mcp.config.odoo_config import runner_config
from assista_mcp.server.context import AppContext
from odoo_tools.runs._pg import Pg
from odoo_tools.runs._validate import OdooRunner, RunnerConfig
from tests.odoo.runner_support import STUB_ODOO_BIN, processes_mentioning, verdict

RunnerFactory = Callable[..., OdooRunner]
STUB_ENV = {"ASSISTA_STUB_DELAY": "0", "PYTHONDONTWRITEBYTECODE": "1"}


@pytest.fixture
def stub_copy(tmp_path: Path) -> Path:
    """A copy of the stand-in, so a test may edit "Odoo's source"."""
    target = tmp_path / "odoo_src"
    shutil.copytree(STUB_ODOO_BIN.parent, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target / "odoo-bin"


@pytest.fixture
def make_runner(pg: Pg, stub_copy: Path, addons: Path, tmp_path: Path) -> Iterator[RunnerFactory]:
    made: list[OdooRunner] = []

    def make(warm: bool = True, delay: float = 0.0, **overrides: object) -> OdooRunner:
        values: dict[str, object] = {
            "addons_paths": [addons],
            "cache_dir": tmp_path / "cache",
            "odoo_bin": stub_copy,
            "odoo_python": sys.executable,
            "db_prefix": pg.prefix,
            "extra_env": {**STUB_ENV, "ASSISTA_STUB_DELAY": str(delay)},
            "warm": warm,
        }
        values.update(overrides)
        runner = OdooRunner(RunnerConfig(**values))  # type: ignore[arg-type]
        made.append(runner)
        return runner

    yield make
    for runner in made:
        runner.close()
        runner.wait_idle()
        runner.cache.clear()
    assert processes_mentioning(str(tmp_path / "cache")) == []  # no worker, no child


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _run_databases(pg: Pg) -> list[str]:
    """Our databases that are not templates or spares."""
    return [n for n in pg.list_ours() if not n.startswith(f"{pg.prefix}tpl")]


@pytest.mark.anyio
async def test_warm_runs_give_the_cold_verdicts(make_runner: RunnerFactory, addons: Path) -> None:
    cold, warm = make_runner(warm=False), make_runner()
    test_file = addons / "library_base" / "tests" / "test_library_book.py"
    test_file.write_text(test_file.read_text() + "\n    def test_fails(self):\n        self.fail('no')\n")
    for action, module in [("install", "library_base"), ("test", "library_base"),
                           ("upgrade", "library_loan"), ("install", "library_nope")]:  # fmt: skip
        expected = await cold.validate(action, [module])  # type: ignore[arg-type]
        got = await warm.validate(action, [module])  # type: ignore[arg-type]
        assert expected.warm.status == "off" and got.warm.status == "warm", got.warm
        assert verdict(got) == verdict(expected), (action, module)
        assert got.summary == expected.summary
        assert "# assista-odoo " in _read(got.log_path)


@pytest.mark.anyio
async def test_broken_module_findings_are_the_same_warm(make_runner: RunnerFactory, addons: Path) -> None:
    model = addons / "library_base" / "models" / "library_book.py"
    model.write_text(model.read_text() + "\ndef broken(:\n")
    cold = await make_runner(warm=False).validate("install", ["library_base"])
    warm = await make_runner().validate("install", ["library_base"])
    assert not warm.ok and warm.warm.status == "warm"
    assert verdict(warm) == verdict(cold)


@pytest.mark.anyio
async def test_one_worker_serves_edits_of_the_module(make_runner: RunnerFactory, addons: Path) -> None:
    runner = make_runner()
    first = await runner.validate("install", ["library_base"])
    worker = runner._warm.worker if runner._warm else None
    model = addons / "library_base" / "models" / "library_book.py"
    model.write_text(model.read_text() + "\n# edited\n")
    second = await runner.validate("install", ["library_base"])
    assert first.ok and second.ok and second.warm.status == "warm"
    assert worker is not None and runner._warm is not None and runner._warm.worker is worker


@pytest.mark.anyio
async def test_concurrent_runs_share_one_starting_worker(make_runner: RunnerFactory) -> None:
    await make_runner(warm=False).validate("install", ["library_base"])  # the template
    runner = make_runner()
    results = await asyncio.gather(*(runner.validate("install", ["library_base"]) for _ in range(2)))
    assert [(r.ok, r.warm.status) for r in results] == [(True, "warm"), (True, "warm")]


@pytest.mark.anyio
async def test_a_stale_worker_falls_back_to_cold_then_is_replaced(
    make_runner: RunnerFactory, stub_copy: Path
) -> None:
    runner = make_runner()
    assert (await runner.validate("install", ["library_base"])).warm.status == "warm"
    source = stub_copy.parent / "odoo" / "cli.py"  # a file the worker imported: "Odoo was updated"
    source.write_text(source.read_text() + "\n# updated\n")
    stale = await runner.validate("install", ["library_base"])
    assert stale.ok and stale.warm.status == "cold"
    assert "cli.py changed" in stale.warm.note
    again = await runner.validate("install", ["library_base"])
    assert again.ok and again.warm.status == "warm"


@pytest.mark.anyio
async def test_an_edited_dependency_makes_the_worker_stale(make_runner: RunnerFactory, addons: Path) -> None:
    # The worker imported library_base (the template's module) through the stand-in's loader, as
    # Odoo's would: run on, it would validate library_loan against the old code of its dependency.
    runner = make_runner()
    first = await runner.validate("install", ["library_loan"])
    assert first.ok and first.warm.status == "warm", first.warm
    book = addons / "library_base" / "models" / "library_book.py"
    book.write_text(book.read_text() + "\n# a dependency changed\n")
    stale = await runner.validate("install", ["library_loan"])
    assert stale.ok and stale.warm.status == "cold", stale.warm
    assert "library_book.py changed" in stale.warm.note
    again = await runner.validate("install", ["library_loan"])
    assert again.ok and again.warm.status == "warm", again.warm


@pytest.mark.anyio
async def test_a_dead_worker_is_replaced_and_said(make_runner: RunnerFactory) -> None:
    runner = make_runner()
    assert (await runner.validate("install", ["library_base"])).warm.status == "warm"
    assert runner._warm is not None and runner._warm.worker is not None
    dead = runner._warm.worker.process
    dead.send_signal(signal.SIGKILL)
    dead.wait()
    result = await runner.validate("install", ["library_base"])
    assert result.ok and result.warm.status == "warm"
    assert result.warm.note == "worker replaced: it had ended (exit code -9)"


@pytest.mark.anyio
async def test_a_worker_that_cannot_start_means_cold_runs(
    make_runner: RunnerFactory, stub_copy: Path
) -> None:
    (stub_copy.parent / "odoo" / "__init__.py").write_text("raise ImportError('no odoo here')\n")
    result = await make_runner().validate("install", ["library_base"])
    assert result.ok and result.warm.status == "cold"
    assert "no odoo here" in result.warm.note


@pytest.mark.anyio
async def test_a_crashing_child_is_validated_again_cold(
    make_runner: RunnerFactory, stub_copy: Path, pg: Pg
) -> None:
    cli = stub_copy.parent / "odoo" / "cli.py"  # the warm child dies of a signal, cold odoo-bin does not
    cli.write_text("import os\n" + cli.read_text() + "\n\ndef main() -> None:\n    os.kill(os.getpid(), 9)\n")
    result = await make_runner().validate("install", ["library_base"])
    assert result.ok and result.warm.status == "cold"
    assert "validated again with a cold odoo-bin" in result.warm.note
    assert "validated again with a cold odoo-bin" in _read(result.log_path)


@pytest.mark.anyio
async def test_a_key_change_starts_another_worker_and_ends_the_old(
    make_runner: RunnerFactory, tmp_path: Path
) -> None:
    runner = make_runner()
    await runner.validate("install", ["library_base"])
    assert runner._warm is not None and runner._warm.worker is not None
    first = runner._warm.worker
    await runner.validate("install", ["library_loan"])  # another template: another worker
    assert runner._warm.worker is not first and first.process.poll() is not None
    assert len(processes_mentioning(str(tmp_path / "cache"))) == 1


@pytest.mark.anyio
async def test_cancel_kills_the_warm_child_and_drops_the_database(
    make_runner: RunnerFactory, pg: Pg, tmp_path: Path
) -> None:
    await make_runner(warm=False).validate("install", ["library_base"])  # the template, quickly
    runner = make_runner(delay=0.3)
    installing = asyncio.Event()

    def progress(k: int, n: int, message: str) -> None:
        if message.startswith("install"):
            installing.set()

    task = asyncio.create_task(runner.validate("install", ["library_base"], on_progress=progress))
    await asyncio.wait_for(installing.wait(), 120)
    ours = str(tmp_path / "cache")
    assert len(processes_mentioning(ours)) == 2  # the worker and its child, at work
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _run_databases(pg) == []
    assert len(processes_mentioning(ours)) == 1  # the worker alone, ready for the next run


@pytest.mark.anyio
async def test_timeout_kills_the_warm_child_and_says_so(
    make_runner: RunnerFactory, pg: Pg, tmp_path: Path
) -> None:
    await make_runner(warm=False).validate("install", ["library_base"])
    runner = make_runner(delay=0.5, timeout=1.0)
    result = await runner.validate("install", ["library_base"])
    assert result.timed_out and not result.ok and result.warm.status == "warm"
    runner.wait_idle()
    assert _run_databases(pg) == []
    assert len(processes_mentioning(str(tmp_path / "cache"))) == 1


def test_the_worker_gets_only_the_cold_child_environment(
    make_runner: RunnerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-of-ours")
    runner = make_runner()
    assert runner.validate_sync("install", ["library_base"]).warm.status == "warm"
    assert runner._warm is not None and runner._warm.worker is not None
    environ = Path(f"/proc/{runner._warm.worker.pid}/environ").read_bytes()
    assert b"sk-secret-of-ours" not in environ and b"ASSISTA_STUB_DELAY" in environ


def test_the_server_runs_warm_unless_told_not_to(addons: Path, tmp_path: Path) -> None:
    """On for the long-lived server (serve, run, chat); ASSISTA_WARM_WORKER=false turns it off.
    One-shot commands build their runner from runner_config alone: cold."""
    base = {"ASSISTA_ADDONS_PATH": str(addons), "ASSISTA_HOME": str(tmp_path / "home")}
    settings = load_settings(env=base, cwd=tmp_path)
    assert AppContext(settings).runner.config.warm
    assert not runner_config(settings).warm
    off = load_settings(env={**base, "ASSISTA_WARM_WORKER": "false"}, cwd=tmp_path)
    assert not AppContext(off).runner.config.warm
