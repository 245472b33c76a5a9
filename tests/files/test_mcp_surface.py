"""What a host sees of the file tools: names, honest annotations, schemas, errors with a next step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.files.conftest import BOOK, error_text
from tests.read_only import read_only

pytestmark = pytest.mark.anyio

READ_ONLY = {"read_file", "list_directory", "search_files", "grep", "file_info"}
WRITING = {"write_file", "edit_file", "apply_patch", "create_folder", "move_file", "delete_file"}
DESTRUCTIVE = {"write_file", "edit_file", "apply_patch", "move_file", "delete_file"}


async def test_every_file_tool_is_published_with_honest_annotations(server_for: Any, addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) >= READ_ONLY | WRITING
    for name in READ_ONLY | WRITING:
        tool = tools[name]
        hints = tool.annotations
        assert hints is not None and hints.open_world_hint is False, name
        assert hints.read_only_hint is (name in READ_ONLY), name
        assert hints.destructive_hint is (name in DESTRUCTIVE), name
        assert tool.description and len(tool.description) > 40, name
        assert tool.output_schema is not None, name
        for param, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{name}.{param} has no description"


async def test_readonly_odoo_source_is_readable_not_writable(
    server_for: Any, addons: Path, tmp_path: Path
) -> None:
    source = tmp_path / "odoo_src"
    (source / "addons" / "base").mkdir(parents=True)
    model = source / "addons" / "base" / "x.py"
    model.write_text("X = 1\n", encoding="utf-8")
    async with Client(server_for(addons, odoo_path=source)) as client:
        read = await client.call_tool("read_file", {"paths": "base/x.py"})
        write = await client.call_tool("write_file", {"path": str(model), "content": "Y"})
        edit = await client.call_tool(
            "edit_file", {"path": "base/x.py", "edits": [{"old_text": "X = 1", "new_text": "X = 2"}]}
        )
    assert read.structured_content["files"][0]["content"] == "X = 1\n"
    assert "read-only" in error_text(write)
    assert edit.is_error
    assert model.read_text(encoding="utf-8") == "X = 1\n"


async def test_errors_name_the_next_step(call: Any) -> None:
    missing = error_text(await call("edit_file", path="nope.py", edits=[{"old_text": "a", "new_text": "b"}]))
    assert "No such file" in missing and "list_directory" in missing
    escape = error_text(await call("write_file", path="../outside.py", content="x"))
    assert "outside" in escape
    folder = error_text(await call("write_file", path="library_base", content="x"))
    assert "folder" in folder
    patch = error_text(
        await call("apply_patch", patch=f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1 +1 @@\n-zzz\n+y\n")
    )
    assert f"{BOOK}, hunk 1" in patch and "regenerate" in patch


async def test_a_refused_write_names_the_users_path_and_file_info_says_readonly(
    server_for: Any, addons: Path
) -> None:
    locked = addons / "library_base" / "locked"
    locked.mkdir()
    (locked / "kept.py").write_text("X = 1\n", encoding="utf-8")
    async with Client(server_for(addons)) as client:
        with read_only(locked):
            write = await client.call_tool(
                "write_file", {"path": "library_base/locked/new.py", "content": "Y"}
            )
            replace = await client.call_tool(
                "write_file", {"path": "library_base/locked/kept.py", "content": "Y"}
            )
            info = await client.call_tool("file_info", {"path": "library_base/locked/kept.py"})
        free = await client.call_tool("file_info", {"path": "library_base/locked/kept.py"})
    for refused, path in ((write, "library_base/locked/new.py"), (replace, "library_base/locked/kept.py")):
        text = error_text(refused)
        assert path in text and ".tmp" not in text, text
    assert info.structured_content["readonly"] is True
    assert free.structured_content["readonly"] is False
    assert (locked / "kept.py").read_text(encoding="utf-8") == "X = 1\n"
