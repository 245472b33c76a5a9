"""The README tells the truth: its set-up commands are what CI runs, its tool table is the server's."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.server.mcp_server import tool_effect

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def _bash_blocks() -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", README, re.DOTALL)]


def test_readme_opens_with_the_two_set_up_commands() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", setup, re.DOTALL)
    assert len(blocks) == 2
    install, tests = (block.strip() for block in blocks)
    assert install.startswith("bash scripts/install.sh && ") and " check " in install
    assert tests == "bash scripts/setup-tests.sh && .venv/bin/python -m pytest"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert _bash_blocks()[1] in ci


@pytest.mark.anyio
async def test_tool_table_lists_exactly_the_servers_tools(
    server_for: Callable[..., Any], addons: Path
) -> None:
    table = README.split("## Tools, resources and prompts", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([a-z_]+) \|", table, re.MULTILINE))
    documented = set(rows)
    async with Client(server_for(addons)) as client:
        served = {tool.name for tool in (await client.list_tools()).tools}
        prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    assert documented == served
    # The kind column is each tool's effect, as the registry (and the tool's _meta) says it.
    assert rows == {name: tool_effect(name).effect.value for name in served}
    assert all(f"`{name}`" in table for name in prompts)
    assert all(f"`{uri}`" in table for uri in templates)
