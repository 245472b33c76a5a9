"""``migrate_module`` runs the Odoo source's ``odoo/upgrade_code/*.py`` inside the server: running
code (issue 35, item 2). It is asked for as ``test_module`` is (the run_code effect), and a source
whose scripts the write tools can reach (inside a writable addons root) is refused for it. Real
MCP server (in-memory client) and the real agent CLI with a scripted model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.safety.conftest import RunAgent, StartServer, call

MODULE = "{'version': '17.0.1.0.0'}"


def _planted_source(root: Path, marker: Path) -> Path:
    """An 18.0 "Odoo source" whose upgrade_code script writes ``marker`` when imported."""
    source = root / "odoo_src"
    (source / "odoo" / "upgrade_code").mkdir(parents=True)
    (source / "odoo" / "release.py").write_text("version_info = (18, 0, 0, 'final', 0, '')\n")
    (source / "odoo" / "upgrade_code" / "17.5-planted.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n\ndef upgrade(file_manager):\n    pass\n"
    )
    return source


@pytest.mark.anyio
async def test_scripts_inside_a_writable_root_are_refused(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    addons = tmp_path / "addons"
    (addons / "mine").mkdir(parents=True)
    (addons / "mine" / "__manifest__.py").write_text(MODULE)
    marker = tmp_path / "ran"
    source = _planted_source(addons, marker)
    async with Client(server_for(addons, odoo_path=source)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        refused = await client.call_tool("migrate_module", {"module": "mine", "to_series": "18.0"})
    assert refused.is_error and "upgrade_code" in refused.content[0].text  # type: ignore[union-attr]
    assert not marker.exists()
    tool = tools["migrate_module"]
    assert tool.meta == {"assista-odoo/effect": "run_code"}
    assert tool.annotations is not None and tool.annotations.open_world_hint is True


@pytest.mark.anyio
async def test_a_script_linked_into_a_writable_root_is_refused(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    addons = tmp_path / "addons"
    (addons / "mine").mkdir(parents=True)
    (addons / "mine" / "__manifest__.py").write_text(MODULE)
    marker = tmp_path / "ran"
    source = _planted_source(tmp_path, marker)
    script = source / "odoo" / "upgrade_code" / "17.5-planted.py"
    script.rename(addons / "mine" / "helper.py")
    script.symlink_to(addons / "mine" / "helper.py")
    async with Client(server_for(addons, odoo_path=source)) as client:
        refused = await client.call_tool("migrate_module", {"module": "mine", "to_series": "18.0"})
    assert refused.is_error and not marker.exists()


def test_auto_edit_asks_before_migrate_module_runs_odoos_scripts(
    run_agent: RunAgent, model_server: StartServer, tmp_path: Path
) -> None:
    """The bundled agent in auto-edit ran it with no run_code approval: now it asks (and with no
    terminal to ask, it is denied), as test_module is."""
    addons = tmp_path / "addons"
    (addons / "mine").mkdir(parents=True)
    (addons / "mine" / "__manifest__.py").write_text(MODULE)
    marker = tmp_path / "ran"
    source = _planted_source(tmp_path / "elsewhere", marker)
    arguments = {"module": "mine", "to_series": "18.0"}
    server = model_server([{"tool_calls": [call("m1", "migrate_module", arguments)]}, {"text": "done"}])
    flags = ["--mode", "auto-edit", "--no-validate", "--odoo-path", str(source)]
    _, events, _ = run_agent(server, addons, "migrate", *flags)
    [result] = [e for e in events if e["type"] == "tool_result" and e.get("tool_call_id") == "m1"]
    assert result["is_error"] and "needs approval" in result["text"] and "run_code" in result["text"]
    assert not marker.exists()
