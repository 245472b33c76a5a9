"""The Odoo tools through MCP (in-memory Client): answers, progress, cancellation, doctor, run log."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from odoo_tools.runs._pg import Pg
from tests.odoo.runner_support import join_spare_threads, processes_mentioning

ServerFactory = Callable[..., Any]


@pytest.fixture
def odoo_server(server_for: ServerFactory, addons: Path, pg: Pg, stub_odoo_bin: Path) -> Any:
    return server_for(addons, odoo_bin=stub_odoo_bin, odoo_python=sys.executable, db_prefix=pg.prefix)


async def _settles(condition: Callable[[], bool]) -> bool:
    for _ in range(300):
        if condition():
            return True
        await anyio.sleep(0.1)
    return False


def _drop_templates(pg: Pg) -> None:
    join_spare_threads()
    for name in pg.list_ours():
        pg.drop(name)


@pytest.mark.anyio
async def test_tools_are_listed_with_output_schemas_and_honest_annotations(odoo_server: Any) -> None:
    async with Client(odoo_server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("install_module", "upgrade_module", "test_module"):
        tool = tools[name]
        assert tool.output_schema and "findings" in tool.output_schema["properties"]
        # They run the project's code (odoo-bin imports the addons): never read-only, and that
        # code may change or reach anything the server's user can.
        assert tool.annotations and tool.annotations.read_only_hint is False
        assert tool.annotations.destructive_hint is True and tool.annotations.open_world_hint is True
        assert tool.meta == {"assista-odoo/effect": "run_code"}
        assert "mcp" not in tool.input_schema["properties"]  # the Context is not a parameter
    assert tools["odoo_doctor"].annotations.read_only_hint is True  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_install_module_reports_progress_and_structured_result(odoo_server: Any, pg: Pg) -> None:
    progress_seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        progress_seen.append((progress, total, message))

    async with Client(odoo_server) as client:
        result = await client.call_tool(
            "install_module", {"modules": "library_loan"}, progress_callback=on_progress
        )
        assert not result.is_error, result.content
        data = result.structured_content
        assert data is not None
        assert data["ok"] is True
        assert data["modules"] == [
            {"module": "library_loan", "state": "installed", "ok": True, "tests": None}
        ]
        assert data["template"]["status"] == "built"
        log = await client.read_resource(data["log_resource"])
    assert "Loading module library_loan" in log.contents[0].text  # type: ignore[union-attr]
    values = [p[0] for p in progress_seen]
    assert values == sorted(values) and len(set(values)) == len(values)  # strictly increasing
    assert any(m and "library_loan" in m for _, _, m in progress_seen)
    _drop_templates(pg)


@pytest.mark.anyio
async def test_test_module_returns_failing_tests_as_data(odoo_server: Any, addons: Path, pg: Pg) -> None:
    test_file = addons / "library_loan" / "tests" / "test_library_loan.py"
    test_file.write_text(
        test_file.read_text() + "\n    def test_broken(self):\n        raise ValueError('boom')\n"
    )
    async with Client(odoo_server) as client:
        result = await client.call_tool("test_module", {"modules": ["library_loan"]})
    assert not result.is_error  # bad news is an answer, not an error
    data = result.structured_content or {}
    assert data["ok"] is False
    statuses = {t["method"]: t["status"] for t in data["tests"]}
    assert statuses["test_broken"] == "error"
    assert any(
        f["kind"] == "test-error" and f["path"].endswith("test_library_loan.py") for f in data["findings"]
    )
    _drop_templates(pg)


@pytest.mark.anyio
async def test_bad_input_is_an_error_result_with_a_hint(odoo_server: Any) -> None:
    async with Client(odoo_server) as client:
        result = await client.call_tool("install_module", {"modules": "../../etc"})
    assert result.is_error
    assert "Not a module name" in result.content[0].text  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_mcp_cancel_kills_odoo_and_drops_the_database(odoo_server: Any, pg: Pg) -> None:
    started = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        if message and message.startswith("install"):
            started.set()

    async with Client(odoo_server) as client:
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:

                async def call() -> None:
                    await client.call_tool(
                        "install_module",
                        {"modules": "library_base", "use_cache": False},
                        progress_callback=on_progress,
                    )

                group.start_soon(call)
                with anyio.fail_after(120):
                    await started.wait()
                assert processes_mentioning(pg.prefix)
                scope.cancel()
        assert scope.cancelled_caught
        # The server finishes its cleanup on its own side; a later call proves it is still serving.
        doctor = await client.call_tool("odoo_doctor", {})
    assert not doctor.is_error
    assert await _settles(lambda: not pg.list_ours() and not processes_mentioning(pg.prefix))


@pytest.mark.anyio
async def test_doctor_reports_each_check(odoo_server: Any) -> None:
    async with Client(odoo_server) as client:
        result = await client.call_tool("odoo_doctor", {})
    data = result.structured_content or {}
    checks = {c["name"]: c for c in data["checks"]}
    assert checks["postgresql"]["ok"] and checks["postgresql-createdb"]["ok"]
    assert checks["odoo-bin"]["ok"] and "18.0" in checks["odoo-version"]["detail"]
    assert checks["addons-path"]["ok"]
    assert "python-dependencies" in checks


@pytest.mark.anyio
async def test_doctor_gives_a_fix_for_a_missing_odoo_bin(server_for: ServerFactory, addons: Path) -> None:
    server = server_for(addons, odoo_bin=addons / "no-such-odoo-bin")
    async with Client(server) as client:
        data = (await client.call_tool("odoo_doctor", {})).structured_content or {}
    [check] = [c for c in data["checks"] if c["name"] == "odoo-bin"]
    assert not check["ok"] and "--odoo-bin" in check["fix"]
    assert data["ok"] is False


@pytest.mark.anyio
async def test_run_log_resource_refuses_anything_but_our_logs(odoo_server: Any) -> None:
    async with Client(odoo_server) as client:
        with pytest.raises(Exception, match=r"No run log|Unknown resource"):
            await client.read_resource("odoo://run-log/..%2F..%2Fetc%2Fpasswd")
        with pytest.raises(Exception, match="No run log"):
            await client.read_resource("odoo://run-log/.hidden.log")
        with pytest.raises(Exception, match="No run log"):
            await client.read_resource("odoo://run-log/nothing.log")


@pytest.mark.anyio
async def test_an_unknown_module_is_an_error_before_odoo_starts(odoo_server: Any, pg: Pg) -> None:
    async with Client(odoo_server) as client:
        result = await client.call_tool("install_module", {"modules": ["library_base", "nosuch"]})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Unknown module(s): nosuch" in text and "list_modules" in text
    assert pg.list_ours() == []  # no database: Odoo never ran
