"""In ask mode, ``migrate_module(write=true)`` asks with the diff it will write, as the edit tools
do (issue 35, item 12): before, the question showed only its arguments. Bounded (a migration can
change thousands of lines) and, on the terminal, with control characters escaped."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assista_mcp.agent.loop.approvals import ApprovalRequest, Decision
from assista_mcp.agent.loop.change_preview import MAX_MIGRATION_CHARS
from assista_mcp.agent.loop.toolset import ServerSpec
from assista_mcp.agent.terminal.approval_prompt import describe_request
from assista_mcp.config.settings import Settings
from assista_mcp.server.mcp_server import build_server
from tests.agent.loop_support import agent
from tests.safety.conftest import StartServer, call, snapshot

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "migrate" / "v17"
WRITE_18 = {"to_series": "18.0", "write": True}
OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"


@pytest.mark.anyio
async def test_ask_mode_shows_the_migrations_diff_bounded_and_escaped(
    model_server: StartServer, tmp_path: Path
) -> None:
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURES, addons)
    big = addons / "big"
    (big / "views").mkdir(parents=True)
    (big / "__manifest__.py").write_text(f"{{'version': '17.0.1.0.0', 'summary': '{OSC52}'}}\n")
    record = '<record id="v{0}" model="ir.ui.view"><field name="arch" type="xml"><tree/></field></record>\n'
    (big / "views" / "many.xml").write_text(
        "<odoo>\n" + "".join(map(record.format, range(3000))) + "</odoo>\n"
    )
    before = snapshot(addons)
    server = model_server(
        [
            {
                "tool_calls": [
                    call("m1", "migrate_module", {"module": "mig_views", "to_series": "18.0", "write": True})
                ]
            },
            {
                "tool_calls": [
                    call("m2", "migrate_module", {"module": "big", "to_series": "18.0", "write": True})
                ]
            },
            {"text": "done"},
        ]
    )
    asked: list[ApprovalRequest] = []

    async def deny(request: ApprovalRequest) -> Decision:
        asked.append(request)
        return Decision(tool_call_id=request.tool_call_id, verdict="deny")

    spec = ServerSpec("assista", build_server(Settings(addons_paths=[addons])), own=True)
    async with agent(server, addons, mode="ask", prompter=deny, specs=[spec]) as (loop, _events):
        await loop.run_turn("migrate")
    small, many = asked
    assert '+            <list string="Notes">' in small.change  # the diff, not the arguments
    assert "more characters of the diff" not in small.change
    assert len(many.change) < MAX_MIGRATION_CHARS + 500 and "more characters of the diff" in many.change
    shown = "\n".join(describe_request(many))
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b]52" in shown
    assert snapshot(addons) == before  # the dry run behind the question wrote nothing
