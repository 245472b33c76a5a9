"""Guidelines (resource + tool mirror) and prompts, through the MCP protocol."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError

from assista_mcp.guidelines import SERIES, guidelines_for
from odoo_tools.errors import InvalidInput

pytestmark = pytest.mark.anyio


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.contents)


@pytest.mark.parametrize(
    ("series", "must", "must_not"),
    [
        ("16.0", "attrs=", "<chatter/>"),
        ("17.0", "invisible=\"state != 'draft'\"", "<chatter/>"),
        ("18.0", "<chatter/>", "models.Constraint"),
        ("19.0", "models.Constraint", "name_get()` (or `_rec_name`)"),
        ("20.0", "id,name,model_id,group_id/id,operation,domain", 'Constraint("unique'),
    ],
)
async def test_guidelines_resource_is_series_specific(
    server_for: Callable[..., Any], addons: Path, series: str, must: str, must_not: str
) -> None:
    async with Client(server_for(addons)) as client:
        text = _text(await client.read_resource(f"odoo://guidelines/{series}"))
    assert text.startswith(f"# Odoo {series} development guidelines")
    assert must in text
    assert must_not not in text
    assert "ir.model.access.csv" in text  # the common part is always there


async def test_guidelines_tool_mirrors_the_resource(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        resource = _text(await client.read_resource("odoo://guidelines/17.0"))
        result = await client.call_tool("get_guidelines", {"series": "17.0"})
    assert not result.is_error
    assert result.structured_content == {"series": "17.0", "text": resource}
    # What a model reads is the markdown itself, not a JSON dump with escaped newlines.
    assert result.content[0].text == resource  # type: ignore[union-attr]


@pytest.mark.parametrize("asked", ["15.0", "banana", "12", "21.0"])
async def test_an_unsupported_series_is_an_error_naming_the_supported_ones(
    server_for: Callable[..., Any], addons: Path, asked: str
) -> None:
    # It used to answer with the 18.0 text as if it were the one asked for.
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("get_guidelines", {"series": asked})
        with pytest.raises(MCPError, match=re.escape("supported are 16.0, 17.0, 18.0, 19.0, 20.0")):
            await client.read_resource(f"odoo://guidelines/{asked}")
        with pytest.raises(MCPError, match=re.escape("supported are 16.0")):
            await client.get_prompt("odoo_developer", {"series": asked})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert repr(asked) in text and "supported are 16.0, 17.0, 18.0, 19.0, 20.0" in text


@pytest.fixture
def addons_17(addons: Path) -> Path:
    for manifest in addons.glob("*/__manifest__.py"):
        manifest.write_text(manifest.read_text().replace('"18.0.1.0.0"', '"17.0.1.0.0"'))
    return addons


async def test_guidelines_tool_defaults_to_the_project_series(
    server_for: Callable[..., Any], addons_17: Path
) -> None:
    # The manifests (17.0) outrank the configured fallback (16.0), as odoo_tools.addons._series decides.
    async with Client(server_for(addons_17, odoo_series="16.0")) as client:
        result = await client.call_tool("get_guidelines", {})
        developer = await client.get_prompt("odoo_developer", {})
    assert result.structured_content is not None
    assert result.structured_content["series"] == "17.0"
    assert "Odoo 17.0" in developer.messages[0].content.text  # type: ignore[union-attr]


def test_every_supported_series_has_its_guidelines_and_no_other_series_is_answered() -> None:
    for series in SERIES:
        assert guidelines_for(series).startswith(f"# Odoo {series} development guidelines")
    assert guidelines_for("18.0.1.0.0").startswith("# Odoo 18.0")
    assert guidelines_for("saas~17.2").startswith("# Odoo 17.0")
    for asked in ("12.0", "nonsense", "21.0"):  # these used to get the 18.0 text
        with pytest.raises(InvalidInput, match=r"supported are 16\.0"):
            guidelines_for(asked)


@pytest.fixture
def addons_unversioned(addons: Path) -> Path:
    for manifest in addons.glob("*/__manifest__.py"):
        manifest.write_text(manifest.read_text().replace('"18.0.1.0.0"', '"1.0"'))
    return addons


async def test_a_project_of_unknown_series_is_asked_for_one(
    server_for: Callable[..., Any], addons_unversioned: Path
) -> None:
    # It used to get the 18.0 text as if the project were on 18.0.
    async with Client(server_for(addons_unversioned)) as client:
        result = await client.call_tool("get_guidelines", {})
        with pytest.raises(MCPError, match="series is unknown"):
            await client.get_prompt("odoo_developer", {})
    assert result.is_error
    assert "Pass series (one of 16.0" in result.content[0].text  # type: ignore[union-attr]


async def test_prompts_are_listed_with_their_arguments(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    assert set(prompts) >= {"odoo_developer", "add_field", "new_model", "fix_install_error", "migrate_module"}
    required = {a.name for a in prompts["add_field"].arguments or [] if a.required}
    assert required == {"module", "model", "field_name", "field_type"}
    undescribed = [(p.name, a.name) for p in prompts.values() for a in p.arguments or [] if not a.description]
    assert undescribed == []


async def test_task_prompts_render_their_arguments(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        dev = await client.get_prompt("odoo_developer", {"series": "17.0"})
        field = await client.get_prompt(
            "add_field",
            {"module": "library_loan", "model": "library.book", "field_name": "shelf", "field_type": "Char"},
        )
        model = await client.get_prompt(
            "new_model", {"module": "library_loan", "model_name": "library.fine", "description": "Fines"}
        )
        fix = await client.get_prompt("fix_install_error", {"module": "library_broken", "error": "boom"})
        migrate = await client.get_prompt(
            "migrate_module", {"module": "library_base", "from_series": "16.0", "to_series": "18"}
        )

    def text(prompt: Any) -> str:
        return "".join(m.content.text for m in prompt.messages)

    assert "Odoo 17.0" in text(dev) and "check_module" in text(dev)
    assert "`shelf`" in text(field) and "_inherit = 'library.book'" in text(field)
    assert "ir.model.access.csv" in text(model) and "library.fine" in text(model)
    assert "boom" in text(fix)
    assert "18.0.1.0.0" in text(migrate)
    assert "`migrate_module` module=library_base to_series=18.0 from_series=16.0 shows" in text(migrate)


async def test_prompt_with_missing_argument_is_an_error(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        with pytest.raises(MCPError, match="Missing required arguments"):
            await client.get_prompt("new_model", {"module": "x"})


async def test_unknown_prompt_is_a_clear_error(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        with pytest.raises(MCPError, match="Unknown prompt: nope"):
            await client.get_prompt("nope", {})


async def test_the_20_developer_prompt_names_the_20_access_file(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        developer = await client.get_prompt("odoo_developer", {"series": "20.0"})
        older = await client.get_prompt("odoo_developer", {"series": "19.0"})
        resources = await client.list_resource_templates()
    text = developer.messages[0].content.text  # type: ignore[union-attr]
    assert "Odoo 20.0" in text and "security/ir.access.csv" in text and "ir.model.access" not in text
    assert "security/ir.model.access.csv" in older.messages[0].content.text  # type: ignore[union-attr]
    assert any("20.0" in (t.description or "") for t in resources.resource_templates)
