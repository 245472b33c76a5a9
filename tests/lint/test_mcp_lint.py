"""The lint tools through MCP, as a host or our agent calls them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

pytestmark = pytest.mark.anyio


async def test_tools_are_listed_read_only_with_output_schema(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in ("lint_module", "check_module"):
        tool = tools[name]
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False and tool.annotations.idempotent_hint is True
        assert tool.output_schema is not None and "findings" in tool.output_schema["properties"]
        assert tool.description and "cache" in (tools["lint_module"].description or "")


async def test_check_module_returns_findings_then_answers_from_cache(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        first = await client.call_tool("check_module", {"module": "library_broken", "min_severity": "error"})
        assert not first.is_error
        data = first.structured_content
        assert data is not None and data["passed"] is False and data["from_cache"] == []
        codes = {(f["code"], f["path"], f.get("line")) for f in data["findings"]}
        assert ("removed-attrs", "library_broken/views/library_review_views.xml", 9) in codes
        assert all(f["severity"] == "error" for f in data["findings"])
        assert "below error left out" in data["note"]
        second = await client.call_tool("check_module", {"module": "library_broken", "min_severity": "error"})
        again = second.structured_content
        assert again is not None and sorted(again["from_cache"]) == sorted(
            f"{check}:library_broken" for check in ("pylint", "flake8", "oca-hooks", "static")
        )
        assert again["findings"] == data["findings"]


async def test_lint_module_many_modules_selected_checks_and_limit(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool(
            "lint_module",
            {
                "modules": ["library_broken", "library_loan/models"],
                "checks": ["oca-hooks", "static"],
                "limit": 1,
            },
        )
    data = result.structured_content
    assert data is not None and data["modules"] == ["library_broken", "library_loan"]
    assert data["checks"] == ["oca-hooks", "static"] and data["passed"] is False
    assert len(data["findings"]) == 1 and "showing 1 of" in data["note"]


async def test_paths_outside_the_sandbox_and_unknown_modules_are_errors(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        escape = await client.call_tool("lint_module", {"modules": ["../../etc/passwd"]})
        assert escape.is_error
        unknown = await client.call_tool("check_module", {"module": "library_nothing"})
        assert unknown.is_error and "list_modules" in unknown.content[0].text  # type: ignore[union-attr]
        bad_check = await client.call_tool("lint_module", {"modules": "library_base", "checks": ["eslint"]})
        assert bad_check.is_error
