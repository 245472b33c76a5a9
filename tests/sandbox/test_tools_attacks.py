"""The same attacks through the MCP file tools: nothing outside the roots is read, written,
moved or deleted, whatever tool or argument shape is used. Each call gets a clear error (or a
per-file error entry), the secret never appears in any answer, and the outside is unchanged.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

from .conftest import SECRET, Tree, snapshot

pytestmark = pytest.mark.anyio

OUT_FILE_PATHS = [
    "../outside/secret.txt",
    "m/../../outside/secret.txt",
    "link_file_out",
    "link_chain_1",
    "link_dir_out/secret.txt",
    "link_dir_out/sub/deep.txt",
    "link_parent_out/outside/secret.txt",
    "m/models/link_up_out/secret.txt",
    "link_to_sibling/m/secret.py",
    "../addons2/m/secret.py",
    "hard_out.txt",
    "fifo",
    "loop_a",
]


def dump(result: CallToolResult) -> str:
    texts = [c.text for c in result.content if isinstance(c, TextContent)]
    return "\n".join(texts) + json.dumps(result.structured_content)


@pytest.fixture
async def client(server_for: Callable[..., MCPServer], tree: Tree) -> AsyncIterator[Client]:
    server = server_for(tree.root, odoo_path=tree.base / "odoo")
    async with Client(server) as connected:
        yield connected


@pytest.fixture
def untouched(tree: Tree) -> Callable[[], None]:
    """Call at the end of a test: the outside, the sibling and the read-only root are as they were."""
    folders = (tree.outside, tree.sibling, tree.readonly)
    before = [snapshot(f) for f in folders]

    def check() -> None:
        assert [snapshot(f) for f in folders] == before
        assert tree.secret.read_text() == SECRET

    return check


async def refused(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    text = dump(result)
    assert result.is_error, f"{tool}({arguments}) was accepted: {text[:300]}"
    assert SECRET not in text
    return text


def absolute(tree: Tree) -> list[str]:
    return [str(tree.secret), str(tree.sibling / "m" / "secret.py"), f"{tree.root}/../outside/secret.txt"]


async def test_read_file_reads_nothing_outside(client: Client, tree: Tree) -> None:
    paths = [*OUT_FILE_PATHS, *absolute(tree), "m/__init__.py"]
    result = await client.call_tool("read_file", {"paths": paths})
    assert SECRET not in dump(result)
    if result.is_error:
        return  # refusing the whole batch is also safe
    assert result.structured_content is not None
    entries = {e["path"]: e for e in result.structured_content["files"]}
    good = [e for e in entries.values() if e["error"] is None]
    assert [e["path"] for e in good] == ["m/__init__.py"]
    assert len(entries) == len(paths)


@pytest.mark.parametrize("path", OUT_FILE_PATHS)
async def test_read_file_single_outside_path(client: Client, path: str) -> None:
    result = await client.call_tool("read_file", {"paths": path})
    assert SECRET not in dump(result)
    assert result.is_error or result.structured_content["files"][0]["error"]


@pytest.mark.parametrize(
    "path", ["../outside/secret.txt", "../outside/no_such_file.txt", "../no_such_dir/x.py"]
)
async def test_read_file_outside_says_outside_whether_it_exists_or_not(client: Client, path: str) -> None:
    # "No such file" for a missing path and "outside" for a present one would tell what exists out there.
    result = await client.call_tool("read_file", {"path": path})
    assert result.is_error
    assert "outside the addons roots" in dump(result)
    assert "No such file" not in dump(result)


@pytest.mark.parametrize("encoding", ["utf-8", "base64"])
async def test_read_file_base64_does_not_leak_either(client: Client, encoding: str) -> None:
    import base64

    result = await client.call_tool("read_file", {"paths": OUT_FILE_PATHS, "encoding": encoding})
    assert base64.b64encode(SECRET.encode()).decode()[:20] not in dump(result)
    assert SECRET not in dump(result)


WRITE_TARGETS = [
    "../outside/new.py",
    "../outside/secret.txt",
    "link_file_out",
    "link_chain_1",
    "hard_out.txt",
    "link_dir_out/new.py",
    "link_dir_out/deeper/new.py",
    "dangling_out",
    "dangling_out_dir/new.py",
    "link_parent_out/outside/new.py",
    "m/models/link_up_out/new.py",
    "../addons2/m/evil.py",
    "link_to_sibling/m/evil.py",
    "link_to_readonly/models.py",
    "fifo",
    "loop_a/new.py",
]


@pytest.mark.parametrize("path", WRITE_TARGETS)
async def test_write_file_cannot_write_outside(
    client: Client, tree: Tree, untouched: Callable[[], None], path: str
) -> None:
    await refused(client, "write_file", {"path": path, "content": "pwned"})
    untouched()


async def test_write_file_absolute_outside_and_readonly(
    client: Client, tree: Tree, untouched: Callable[[], None]
) -> None:
    for path in [*absolute(tree), str(tree.readonly / "base" / "models.py"), str(tree.base / "new.py")]:
        await refused(client, "write_file", {"path": path, "content": "pwned"})
    assert not (tree.base / "new.py").exists()
    untouched()


@pytest.mark.parametrize("path", ["link_file_out", "hard_out.txt", "link_dir_out/secret.txt"])
async def test_edit_file_cannot_edit_outside(
    client: Client, untouched: Callable[[], None], path: str
) -> None:
    edits = [{"old_text": SECRET, "new_text": "pwned"}]
    await refused(client, "edit_file", {"path": path, "edits": edits})
    await refused(client, "edit_file", {"path": path, "edits": edits, "dry_run": True})
    untouched()


def patch_for(old: str, new: str, body: str = f"-{SECRET}\n+pwned\n") -> str:
    return f"--- a/{old}\n+++ b/{new}\n@@ -1 +1 @@\n{body}"


PATCHES = {
    "modify_outside": patch_for("../outside/secret.txt", "../outside/secret.txt"),
    "modify_through_link": patch_for("link_file_out", "link_file_out"),
    "modify_hard_link": patch_for("hard_out.txt", "hard_out.txt"),
    "modify_in_linked_dir": patch_for("link_dir_out/secret.txt", "link_dir_out/secret.txt"),
    "create_outside": "--- /dev/null\n+++ b/../outside/created.py\n@@ -0,0 +1 @@\n+pwned\n",
    "create_in_linked_dir": "--- /dev/null\n+++ b/link_dir_out/created.py\n@@ -0,0 +1 @@\n+pwned\n",
    "create_absolute": "--- /dev/null\n+++ {outside}/created.py\n@@ -0,0 +1 @@\n+pwned\n",
    "delete_outside": f"--- a/../outside/secret.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-{SECRET}\n",
    "delete_through_link": f"--- a/link_file_out\n+++ /dev/null\n@@ -1 +0,0 @@\n-{SECRET}\n",
    "rename_out": (
        "diff --git a/m/__init__.py b/../outside/stolen.py\nsimilarity index 100%\n"
        "rename from m/__init__.py\nrename to ../outside/stolen.py\n"
    ),
    "rename_in_from_outside": (
        "diff --git a/../outside/secret.txt b/m/stolen.txt\nsimilarity index 100%\n"
        "rename from ../outside/secret.txt\nrename to m/stolen.txt\n"
    ),
    "second_file_escapes": (
        "--- a/m/__init__.py\n+++ b/m/__init__.py\n@@ -1 +1 @@\n-from . import models\n+# changed\n"
        + patch_for("link_file_out", "link_file_out")
    ),
}


@pytest.mark.parametrize("name", sorted(PATCHES))
async def test_apply_patch_cannot_touch_outside(
    client: Client, tree: Tree, untouched: Callable[[], None], name: str
) -> None:
    before_inside = (tree.root / "m" / "__init__.py").read_text()
    patch = PATCHES[name].replace("{outside}", str(tree.outside))
    await refused(client, "apply_patch", {"patch": patch})
    await refused(client, "apply_patch", {"patch": patch, "dry_run": True})
    assert (tree.root / "m" / "__init__.py").read_text() == before_inside  # all or nothing
    assert not (tree.root / "m" / "stolen.txt").exists()
    untouched()


async def test_apply_patch_does_not_create_symlinks_out(client: Client, tree: Tree) -> None:
    patch = (
        "diff --git a/m/evil_link b/m/evil_link\nnew file mode 120000\n--- /dev/null\n+++ b/m/evil_link\n"
        f"@@ -0,0 +1 @@\n+{tree.secret}\n\\ No newline at end of file\n"
    )
    result = await client.call_tool("apply_patch", {"patch": patch})
    assert not (tree.root / "m" / "evil_link").is_symlink()
    read = await client.call_tool("read_file", {"paths": "m/evil_link"})
    assert SECRET not in dump(read) and SECRET not in dump(result)


MOVES = [
    ("m/models/book.py", "../outside/book.py"),
    ("m/models/book.py", "link_dir_out/book.py"),
    ("m/models/book.py", "link_parent_out/book.py"),
    ("m/models/book.py", "../addons2/m/book.py"),
    ("m/models/book.py", "link_to_readonly/book.py"),
    ("m/models/book.py", "dangling_out"),
    ("m", "../outside/m"),
    ("m", "link_dir_out/m"),
    ("../outside/secret.txt", "m/stolen.txt"),
    ("hard_out.txt", "m/stolen.txt"),
    (".", "m/root"),
]


@pytest.mark.parametrize(("source", "destination"), MOVES)
async def test_move_file_cannot_cross_the_boundary(
    client: Client, tree: Tree, untouched: Callable[[], None], source: str, destination: str
) -> None:
    before = snapshot(tree.root)
    await refused(client, "move_file", {"source": source, "destination": destination, "overwrite": True})
    assert snapshot(tree.root) == before
    untouched()


@pytest.mark.parametrize(
    ("source", "destination"),
    [("link_file_out", "m/stolen.txt"), ("link_dir_out", "m/stolen_dir"), ("link_root_parent", "m/parent")],
)
async def test_moving_a_link_out_never_makes_its_target_reachable(
    client: Client, tree: Tree, untouched: Callable[[], None], source: str, destination: str
) -> None:
    # Moving the link itself is allowed or refused; either way reads through it stay refused.
    moved = await client.call_tool("move_file", {"source": source, "destination": destination})
    assert SECRET not in dump(moved)
    for probe in (destination, f"{destination}/secret.txt", f"{destination}/outside/secret.txt"):
        read = await client.call_tool("read_file", {"paths": probe})
        assert SECRET not in dump(read)
    untouched()


async def test_move_file_absolute_destination_outside(
    client: Client, tree: Tree, untouched: Callable[[], None]
) -> None:
    await refused(client, "move_file", {"source": "m/models/book.py", "destination": str(tree.base / "b.py")})
    assert (tree.root / "m" / "models" / "book.py").exists()
    untouched()


@pytest.mark.parametrize(
    "path",
    [
        "../outside/secret.txt",
        "../outside",
        "link_dir_out/secret.txt",
        "link_dir_out/sub",
        "link_parent_out/outside",
        "hard_out.txt",
        ".",
        "m/..",
        "../addons2",
    ],
)
async def test_delete_file_cannot_delete_outside_or_a_root(
    client: Client, tree: Tree, untouched: Callable[[], None], path: str
) -> None:
    await refused(client, "delete_file", {"path": path, "recursive": True})
    assert (tree.root / "m" / "__init__.py").exists()
    untouched()


@pytest.mark.parametrize(
    "path", ["link_dir_out/new", "../outside/new", "link_parent_out/new", "dangling_out_dir"]
)
async def test_create_folder_cannot_create_outside(
    client: Client, untouched: Callable[[], None], path: str
) -> None:
    await refused(client, "create_folder", {"path": path})
    untouched()


@pytest.mark.parametrize(
    "path", ["link_dir_out", "link_parent_out", "../outside", "link_to_sibling", "loop_a"]
)
async def test_list_directory_does_not_enter_outside(client: Client, tree: Tree, path: str) -> None:
    text = await refused(client, "list_directory", {"path": path})
    assert "deep.txt" not in text and "secret.txt" not in text


async def test_recursive_listing_and_search_never_follow_links_out(client: Client, tree: Tree) -> None:
    listing = await client.call_tool("list_directory", {"path": ".", "depth": 0, "tree": True})
    assert not listing.is_error
    text = dump(listing)
    assert "deep.txt" not in text and "secret.txt" not in text and "secret.py" not in text
    found = await client.call_tool("search_files", {"pattern": "**/*.txt"})
    assert "deep.txt" not in dump(found) and "secret.txt" not in dump(found)


async def test_grep_never_reads_outside_bytes(client: Client, tree: Tree) -> None:
    everything = await client.call_tool("grep", {"pattern": "OUTSIDE-THE-ROOTS"})
    assert not everything.is_error
    assert everything.structured_content is not None
    assert everything.structured_content["matches"] == []  # links not followed, hard link skipped
    assert SECRET not in dump(everything)
    for path in ["link_dir_out", "link_file_out", "hard_out.txt", "../outside", str(tree.outside)]:
        await refused(client, "grep", {"pattern": "TOP", "path": path})


@pytest.mark.parametrize("path", ["link_file_out", "../outside/secret.txt", "link_dir_out"])
async def test_file_info_refuses_outside(client: Client, path: str) -> None:
    await refused(client, "file_info", {"path": path})


async def test_deleting_a_link_never_deletes_its_target(client: Client, tree: Tree) -> None:
    result = await client.call_tool("delete_file", {"path": "link_in"})
    assert (tree.root / "m" / "__init__.py").exists(), dump(result)


async def test_moving_a_link_moves_the_link(client: Client, tree: Tree) -> None:
    result = await client.call_tool("move_file", {"source": "link_in", "destination": "m/moved_link"})
    assert (tree.root / "m" / "__init__.py").is_file(), dump(result)


async def test_a_link_pointing_out_can_be_deleted_or_is_refused_but_target_stays(
    client: Client, tree: Tree, untouched: Callable[[], None]
) -> None:
    for link in ("link_file_out", "link_dir_out", "link_parent_out", "link_root_parent", "dangling_out"):
        result = await client.call_tool("delete_file", {"path": link, "recursive": True})
        assert SECRET not in dump(result)
    assert (tree.root / "m" / "__init__.py").exists()
    untouched()


async def test_fifo_is_refused_without_hanging(client: Client, tree: Tree) -> None:
    # Opening a FIFO for reading blocks until a writer appears; a refusal proves we never opened it.
    result = await client.call_tool("read_file", {"paths": "fifo"})
    assert result.is_error or result.structured_content["files"][0]["error"]
    assert (tree.root / "fifo").is_fifo()
