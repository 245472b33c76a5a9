"""What a model sees of each tool: one naming convention, titles, clean descriptions, readable text.

Through the in-memory ``Client``, which also checks every structured result against the tool's
output schema (so each call below proves the structured content still matches it).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from assista_mcp.safety import effects
from assista_mcp.server.mcp_server import EFFECTS

pytestmark = pytest.mark.anyio

MANIFEST = "library_base/__manifest__.py"


def texts(result: CallToolResult) -> list[str]:
    return [c.text for c in result.content if isinstance(c, TextContent)]


async def test_every_tool_has_a_title_and_an_unindented_description(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        tools = (await client.list_tools()).tools
    assert [t.name for t in tools if not t.title] == []
    # Docstring indentation used to reach the model (21 of 25 descriptions).
    assert [t.name for t in tools if t.description != inspect.cleandoc(t.description or "")] == []
    assert [t.name for t in tools if "\n    " in (t.description or "")] == []


async def test_parameters_follow_one_naming_convention(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        tools = {t.name: t.input_schema.get("properties", {}) for t in (await client.list_tools()).tools}
    # Named after what they hold: no vague 'name'/'version'.
    assert [(tool, p) for tool, props in tools.items() for p in props if p in ("name", "version")] == []
    # One value by the singular, several by the plural, wherever a tool takes one or several.
    for tool, props in tools.items():
        for one, many in (("path", "paths"), ("module", "modules")):
            if many in props and tool != "odoo_doctor":  # doctor filters by modules, never one
                assert one in props, f"{tool} takes {many} but not {one}"
    assert {"model"} <= set(tools["find_model"]) and {"module"} <= set(tools["module_info"])
    assert {"field", "model"} <= set(tools["find_field"]) and {"series"} <= set(tools["get_guidelines"])


async def test_one_value_by_the_singular_several_by_the_plural(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        one = await client.call_tool("read_file", {"path": MANIFEST})
        several = await client.call_tool("read_file", {"paths": [MANIFEST, "library_base/__init__.py"]})
        old_form = await client.call_tool("read_file", {"paths": MANIFEST})
        both = await client.call_tool("read_file", {"path": MANIFEST, "paths": [MANIFEST]})
        neither = await client.call_tool("read_file", {})
        lint_one = await client.call_tool("lint_module", {"module": "library_base", "checks": ["static"]})
    assert not one.is_error and one.structured_content == old_form.structured_content
    assert len(several.structured_content["files"]) == 2
    assert both.is_error and "Both path and paths" in texts(both)[0]
    assert neither.is_error and "No path given" in texts(neither)[0]
    assert not lint_one.is_error and lint_one.structured_content["modules"] == ["library_base"]


@pytest.mark.parametrize(
    ("tool", "old", "new"), [("find_model", "name", "model"), ("module_info", "name", "module")]
)
async def test_a_pre_release_parameter_name_is_not_taken(
    server_for: Callable[..., Any], addons: Path, tool: str, old: str, new: str
) -> None:
    """Nothing was released under the old names: a call using one is told the parameter it lacks."""
    async with Client(server_for(addons)) as client:
        result = await client.call_tool(tool, {old: "library_base"})
    assert result.is_error and f"{new}: Field required" in texts(result)[0]


def _not_a_json_dump(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    assert "\\n" not in text


async def test_read_file_text_is_the_file_itself(server_for: Callable[..., Any], addons: Path) -> None:
    content = (addons / MANIFEST).read_text(encoding="utf-8")
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("read_file", {"paths": [MANIFEST, "no/such.py"]})
    [text] = texts(result)
    _not_a_json_dump(text)
    assert f"==> {MANIFEST} (lines 1-" in text and content in text
    assert "==> no/such.py: not read <==" in text
    assert result.structured_content["files"][0]["content"] == content


async def test_grep_text_reads_like_grep(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("grep", {"pattern": "_name = ", "include": ["*.py"]})
    [text] = texts(result)
    _not_a_json_dump(text)
    first = result.structured_content["matches"][0]
    assert f"{first['path']}:{first['line']}:{first['text']}" in text.splitlines()
    assert text.startswith(f"{len(result.structured_content['matches'])} match(es)")


async def test_check_module_text_is_a_verdict_and_one_line_per_finding(
    server_for: Callable[..., Any], addons: Path
) -> None:
    (addons / "library_base" / "__manifest__.py").write_text(
        (addons / MANIFEST)
        .read_text(encoding="utf-8")
        .replace("'data': [", "'data': ['views/missing.xml', ")
        .replace('"data": [', '"data": ["views/missing.xml", '),
        encoding="utf-8",
    )
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("lint_module", {"module": "library_base", "checks": ["static"]})
    [text] = texts(result)
    _not_a_json_dump(text)
    data = result.structured_content
    assert data is not None
    verdict = text.splitlines()[0]
    assert verdict.startswith("library_base: ") and f"{data['summary']['errors']} error(s)" in verdict
    for finding in data["findings"]:
        assert (
            f"{finding['path']}:{finding['line']}: {finding['severity']}" in text or finding["line"] is None
        )


async def test_every_tool_has_an_effect_in_the_registry_and_is_annotated_from_it(
    server_for: Callable[..., Any], addons: Path
) -> None:
    # No tool can escape approval: whatever the server lists, the effects registry knows.
    async with Client(server_for(addons)) as client:
        tools = (await client.list_tools()).tools
    assert [t.name for t in tools if t.name not in EFFECTS] == []
    for tool in tools:
        effect = EFFECTS[tool.name].effect
        assert tool.meta == {effects.META_KEY: effect.value}, tool.name
        assert tool.annotations is not None
        hints = tool.annotations.model_dump(exclude={"title"}, exclude_none=True)
        assert hints == EFFECTS[tool.name].annotation_hints(), tool.name
        assert tool.annotations.read_only_hint is (effect is effects.Effect.READ), tool.name
    run_code = {t.name for t in tools if EFFECTS[t.name].effect is effects.Effect.RUN_CODE}
    # migrate_module runs the Odoo source's upgrade_code scripts in the server (issue 35)
    assert run_code == {"install_module", "upgrade_module", "test_module", "migrate_module"}
    for tool in tools:
        if tool.name in run_code:
            assert tool.annotations.destructive_hint and tool.annotations.open_world_hint  # type: ignore[union-attr]
        else:
            assert tool.annotations.open_world_hint is False  # type: ignore[union-attr]


async def test_every_other_answer_is_plain_text_too(server_for: Callable[..., Any], addons: Path) -> None:
    # The SDK's fallback is a JSON dump: a diff or a tree reached the model as one escaped line.
    async with Client(server_for(addons)) as client:
        edit = await client.call_tool(
            "edit_file",
            {
                "path": MANIFEST,
                "edits": [{"old_text": '"Library Base"', "new_text": '"Library"'}],
                "dry_run": True,
            },
        )
        listing = await client.call_tool("list_directory", {"path": "library_base", "tree": True})
    [text] = texts(edit)
    _not_a_json_dump(text)
    diff = edit.structured_content["diff"]
    assert "diff: |" in text and all(f"  {line}" in text for line in diff.splitlines() if line)
    [listed] = texts(listing)
    _not_a_json_dump(listed)
    assert "library_base" in listed and not listing.is_error
