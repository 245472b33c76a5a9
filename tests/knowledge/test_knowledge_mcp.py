"""The knowledge tools and resources through a real MCP client, as a host sees them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError

from odoo_tools.errors import SandboxViolation

pytestmark = pytest.mark.anyio

TOOLS = (
    "list_modules",
    "module_info",
    "find_model",
    "find_field",
    "find_xml_id",
    "find_references",
    "project_map",
)


async def _call(server: Any, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    async with Client(server) as client:
        result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.content[0].text, result.structured_content  # type: ignore[union-attr]


async def _read(server: Any, uri: str) -> str:
    async with Client(server) as client:
        result = await client.read_resource(uri)
    return result.contents[0].text  # type: ignore[union-attr]


async def test_tools_are_listed_read_only_with_output_schemas(
    server_for: Callable[..., Any], tree: Path
) -> None:
    async with Client(server_for(tree / "project")) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in TOOLS:
        tool = tools[name]
        assert tool.annotations is not None and tool.annotations.read_only_hint, name
        assert tool.annotations.idempotent_hint and not tool.annotations.destructive_hint
        assert tool.output_schema and tool.output_schema["type"] == "object", name
        assert tool.description and len(tool.description) > 80, name


async def test_find_model_over_the_bundled_example_addons(
    server_for: Callable[..., Any], addons: Path
) -> None:
    text, data = await _call(server_for(addons), "find_model", model="library.book")
    assert data["defined_in"][0]["module"] == "library_base"
    assert [p["module"] for p in data["extended_by"]] == ["library_loan"]
    fields = {f["name"]: f["module"] for f in data["fields"]}
    assert fields["is_available"] == "library_loan" and fields["isbn"] == "library_base"
    assert text.startswith("# Model library.book (Library Book)\n")
    assert "extended by library_loan (library_loan/models/library_book.py:6): loan_ids, is_available" in text


async def test_find_xml_id_chain_over_the_bundled_example_addons(
    server_for: Callable[..., Any], addons: Path
) -> None:
    _, data = await _call(
        server_for(addons), "find_xml_id", xml_id="library_loan.library_book_view_form_inherit_loan"
    )
    assert [v["xml_id"] for v in data["inheritance_chain"]] == [
        "library_base.library_book_view_form",
        "library_loan.library_book_view_form_inherit_loan",
    ]
    _, dup = await _call(server_for(addons), "find_xml_id", xml_id="library_broken.library_review_view_tree")
    assert [r["line"] for r in dup["records"]] == [3, 13]  # defined twice: both reported


async def test_each_tool_answers(server_for: Callable[..., Any], tree: Path) -> None:
    server = server_for(tree / "project", odoo_path=tree / "odoo")
    _, listed = await _call(server, "list_modules", depends_on="fleet_base")
    assert [m["name"] for m in listed["modules"]] == ["broken_files", "fleet_auto", "fleet_extra"]
    _, info = await _call(server, "module_info", module="fleet_extra")
    assert info["dependents"] == ["fleet_auto"] and info["readonly"] is False
    _, field = await _call(server, "find_field", field="state", model="fleet.vehicle")
    assert [m["module"] for m in field["matches"]] == ["fleet_base", "fleet_extra"]
    _, refs = await _call(server, "find_references", target="fleet_base.fleet_vehicle_action")
    assert [r["path"] for r in refs["references"]] == [
        "fleet_base/views/fleet_menus.xml",
        "fleet_extra/models/fleet_vehicle.py",
    ]
    text, project = await _call(server, "project_map", budget=300, focus=["fleet_extra"])
    assert project["modules_shown"][0] == "fleet_extra" and project["estimated_tokens"] <= 300
    assert text == project["text"]


async def test_resources_match_their_tools(server_for: Callable[..., Any], tree: Path) -> None:
    server = server_for(tree / "project", odoo_path=tree / "odoo")
    pairs = [
        ("odoo://project", "project_map", {}),
        ("odoo://module/fleet_extra", "module_info", {"module": "fleet_extra"}),
        ("odoo://model/fleet.vehicle", "find_model", {"model": "fleet.vehicle"}),
    ]
    for uri, tool, arguments in pairs:
        text, _ = await _call(server, tool, **arguments)
        assert await _read(server, uri) == text, uri
    async with Client(server) as client:
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        static = {str(r.uri) for r in (await client.list_resources()).resources}
    assert {"odoo://module/{module}", "odoo://model/{model}"} <= templates and "odoo://project" in static


async def test_errors_say_what_to_do(server_for: Callable[..., Any], tree: Path) -> None:
    server = server_for(tree / "project")
    async with Client(server) as client:
        result = await client.call_tool("find_model", {"model": "fleet.vehicles"})
        assert result.is_error
        assert "Did you mean: fleet.vehicle" in result.content[0].text  # type: ignore[union-attr]
        result = await client.call_tool("project_map", {"budget": 5})
        assert result.is_error
        result = await client.call_tool("find_references", {"target": "fleet.vehicle", "kind": "table"})
        assert result.is_error and "'model', 'field' or 'xml_id'" in result.content[0].text  # type: ignore[union-attr]
        with pytest.raises(MCPError, match="No addon named 'nope'"):
            await client.read_resource("odoo://module/nope")
        with pytest.raises(MCPError, match=r"No model 'no\.model'"):
            await client.read_resource("odoo://model/no.model")


async def test_odoo_source_next_to_odoo_bin(server_for: Callable[..., Any], tree: Path) -> None:
    server = server_for(tree / "project", odoo_bin=tree / "odoo" / "odoo-bin")
    text, _ = await _call(server, "project_map")
    assert text.startswith("# Odoo 17.0 project")
    _, base = await _call(server, "module_info", module="base")
    assert base["readonly"] is True


def test_core_addons_are_readable_never_writable(make_settings: Callable[..., Any], tree: Path) -> None:
    workspace = make_settings(tree / "project", odoo_path=tree / "odoo").workspace()
    assert workspace.resolve("base/__manifest__.py").root.readonly  # <odoo>/odoo/addons
    assert workspace.resolve("mail/__manifest__.py").root.readonly  # <odoo>/addons
    core_file = str(tree / "odoo" / "odoo" / "addons" / "base" / "__manifest__.py")
    with pytest.raises(SandboxViolation, match="read-only"):
        workspace.resolve(core_file, purpose="write")


async def test_core_modules_are_known_without_an_odoo_source(
    server_for: Callable[..., Any], addons: Path
) -> None:
    # check knows base, mail... from the bundled lists; the knowledge tools must say the same.
    manifest = addons / "library_loan" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace('"depends": [', '"depends": ["ghost_zz", "mail", '))
    server = server_for(addons)
    text, info = await _call(server, "module_info", module="library_base")
    assert info["missing_dependencies"] == [] and info["core_dependencies"] == ["base"]
    assert "MISSING" not in text and "Odoo core dependencies: base" in text
    text, info = await _call(server, "module_info", module="library_loan")
    assert info["missing_dependencies"] == ["ghost_zz"] and info["core_dependencies"] == ["mail"]
    assert "MISSING dependencies: ghost_zz" in text
    text, _ = await _call(server, "project_map")
    assert "core/external dependencies: base, ghost_zz (missing), mail\n" in text
