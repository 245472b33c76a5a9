"""The registry of tool effects, derived from the tool specs: every tool of our server, and the paths a
call writes or deletes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.config.settings import Settings
from assista_mcp.safety.effects import Effect, PathEffects
from assista_mcp.server.mcp_server import EFFECTS, build_server, tool_effect

pytestmark = pytest.mark.anyio
TOOLS = EFFECTS


def paths_of(name: str, arguments: dict[str, Any]) -> PathEffects:
    return tool_effect(name).paths(arguments)


def call_effect(name: str, arguments: dict[str, Any]) -> Effect:
    return tool_effect(name).call_effect(arguments)


DELETE_MANIFEST = """\
diff --git a/library_base/__manifest__.py b/library_base/__manifest__.py
deleted file mode 100644
--- a/library_base/__manifest__.py
+++ /dev/null
@@ -1 +0,0 @@
-{'name': 'Library'}
"""

TWO_FILES = """\
--- a/mod/a.py
+++ b/mod/a.py
@@ -1 +1 @@
-x = 1
+x = 2
--- /dev/null
+++ b/mod/new.py
@@ -0,0 +1 @@
+y = 1
"""


async def test_every_tool_of_our_server_is_in_the_registry(tmp_path: Path) -> None:
    async with Client(build_server(Settings(addons_paths=[tmp_path]))) as client:
        listed = (await client.list_tools()).tools
    names = {tool.name for tool in listed}
    assert names <= set(TOOLS), f"tools without a registered effect: {sorted(names - set(TOOLS))}"
    for tool in listed:  # the server's read-only hint never disagrees with the registry
        assert tool.annotations is not None
        assert bool(tool.annotations.read_only_hint) is (TOOLS[tool.name].effect is Effect.READ), tool.name


def test_kinds_of_tools() -> None:
    assert tool_effect("read_file").effect is Effect.READ
    assert tool_effect("edit_file").effect is Effect.EDIT
    assert tool_effect("delete_file").effect is Effect.DELETE
    assert tool_effect("install_module").effect is Effect.RUN_CODE
    assert tool_effect("a_tool_nobody_registered").effect is Effect.OTHER


def test_patch_deleting_a_file_is_a_deletion() -> None:
    assert paths_of("apply_patch", {"patch": DELETE_MANIFEST}).deleted == ("library_base/__manifest__.py",)
    assert call_effect("apply_patch", {"patch": DELETE_MANIFEST}) is Effect.DELETE
    plain = "--- library_base/__manifest__.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    # A plain diff may name the file with a leading folder apply_patch strips: both are named.
    assert paths_of("apply_patch", {"patch": plain}).deleted == (
        "library_base/__manifest__.py",
        "__manifest__.py",
    )


def test_patch_names_every_file_it_writes() -> None:
    effects = paths_of("apply_patch", {"patch": TWO_FILES})
    assert effects.written == ("mod/a.py", "mod/new.py")
    assert effects.deleted == ()
    assert call_effect("apply_patch", {"patch": TWO_FILES}) is Effect.EDIT
    assert paths_of("apply_patch", {"patch": "not a diff"}) == PathEffects()  # refused by the tool too


def test_git_rename_in_a_patch_deletes_the_old_path() -> None:
    rename = (
        "diff --git a/m/old.py b/m/new.py\nsimilarity index 100%\nrename from m/old.py\nrename to m/new.py\n"
    )
    effects = paths_of("apply_patch", {"patch": rename})
    assert (effects.deleted, effects.written, effects.moved) == (
        ("m/old.py",),
        ("m/new.py",),
        (("m/old.py", "m/new.py"),),
    )


def test_move_deletes_its_source_and_overwrite_destroys_the_destination() -> None:
    plain = paths_of("move_file", {"source": "a/x.py", "destination": "b/x.py"})
    assert (plain.deleted, plain.written, plain.overwritten) == (("a/x.py",), ("b/x.py",), ())
    forced = paths_of("move_file", {"source": "a/x.py", "destination": "b/__init__.py", "overwrite": True})
    assert forced.destroys == ("a/x.py", "b/__init__.py")
    assert call_effect("move_file", {"source": "a", "destination": "b"}) is Effect.DELETE


def test_current_and_upcoming_parameter_names() -> None:
    assert paths_of("write_file", {"path": "m/a.py"}).written == ("m/a.py",)
    assert paths_of("delete_file", {"paths": ["m/a.py", "m/b.py"]}).deleted == ("m/a.py", "m/b.py")
    assert paths_of("edit_file", {"paths": "m/a.py"}).written == ("m/a.py",)
    assert paths_of("create_folder", {"path": "m/data"}).folders == ("m/data",)
    assert paths_of("move_file", {"path": "a", "destination": "b"}).moved == (("a", "b"),)
    assert paths_of("read_file", {"paths": ["m/a.py"]}) == PathEffects()
