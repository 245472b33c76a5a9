from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import InvalidInput
from odoo_tools.files import grep, list_directory, search_files
from odoo_tools.files._globs import glob_matches
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK, error_text

pytestmark = pytest.mark.anyio


async def test_list_root_shows_modules_with_sizes(call: Any) -> None:
    result = await call("list_directory", path=".")
    entries = {e["path"]: e for e in result.structured_content["entries"]}
    assert {"library_base", "library_loan", "library_broken"} <= set(entries)
    assert entries["library_base"]["kind"] == "folder"
    assert entries["README.md"]["size"] > 0
    assert all(e["depth"] == 1 for e in entries.values())


async def test_list_with_depth_tree_and_excludes(call: Any) -> None:
    result = await call("list_directory", path="library_base", depth=0, tree=True, exclude=["*.xml"])
    out = result.structured_content
    paths = [e["path"] for e in out["entries"]]
    assert BOOK in paths and not any(p.endswith(".xml") for p in paths)
    assert "models/\n  __init__.py  (" in out["tree"]


def test_noise_folders_are_skipped_and_symlinks_not_followed(
    ws: Workspace, addons: Path, tmp_path: Path
) -> None:
    (addons / "library_base/__pycache__").mkdir(exist_ok=True)
    (addons / "library_base/__pycache__/x.pyc").write_bytes(b"\x00")
    (addons / ".git").mkdir(exist_ok=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("token", encoding="utf-8")
    os.symlink(outside, addons / "library_base" / "escape")
    paths = {e.path: e.kind for e in list_directory(ws, ".", depth=0).entries}
    assert paths["library_base/escape"] == "symlink"
    assert not any("secret" in p or "__pycache__" in p or p.startswith(".git") for p in paths)
    assert not grep(ws, "token").matches


def test_listing_cap_has_a_note(ws: Workspace) -> None:
    result = list_directory(ws, ".", depth=0, max_entries=5)
    assert result.truncated and len(result.entries) == 5 and result.note


def test_list_a_file_is_refused(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="not a folder"):
        list_directory(ws, BOOK)


async def test_search_files_by_name_and_path_glob(call: Any) -> None:
    by_name = (await call("search_files", pattern="ir.model.access.csv")).structured_content["matches"]
    assert by_name == [
        "library_base/security/ir.model.access.csv",
        "library_loan/security/ir.model.access.csv",
    ]
    by_path = (await call("search_files", pattern="library_*/views/*book*.xml")).structured_content["matches"]
    assert by_path == [
        "library_base/views/library_book_views.xml",
        "library_loan/views/library_book_views.xml",
    ]
    deep = (await call("search_files", pattern="**/tests/*.py", path="library_loan")).structured_content
    assert deep["matches"] == ["library_loan/tests/__init__.py", "library_loan/tests/test_library_loan.py"]


def test_glob_semantics() -> None:
    assert glob_matches("*.py", "a/b/c.py")
    assert not glob_matches("a/*.py", "a/b/c.py")
    assert glob_matches("a/**/*.py", "a/c.py") and glob_matches("a/**/*.py", "a/b/c/d.py")
    assert glob_matches("[!x]*.py", "a.py") and not glob_matches("[!x]*.py", "x.py")


def test_brackets_follow_fnmatch() -> None:
    assert glob_matches("[]]", "]") and glob_matches("[!]]", "a") and not glob_matches("[!]]", "]")
    assert glob_matches("a[]b", "a[]b") and glob_matches("[^a]", "^") and not glob_matches("[^a]", "b")
    assert glob_matches("[[]x", "[x")


async def test_an_invalid_glob_is_bad_input_not_a_crash(call: Any) -> None:
    for tool, arguments in (
        ("search_files", {"pattern": "[z-a]*.py"}),
        ("list_directory", {"path": ".", "exclude": ["[z-a]"]}),
        ("grep", {"pattern": "x", "include": ["[z-a]"]}),
    ):
        text = error_text(await call(tool, **arguments))
        assert "Invalid glob '[z-a]" in text and "bug" not in text, tool


async def test_grep_with_context_and_include(call: Any) -> None:
    result = await call("grep", pattern=r"_name = \"library\.book\"", include=["*.py"], context=1)
    out = result.structured_content
    assert [(m["path"], m["line"]) for m in out["matches"]] == [(BOOK, 8)]
    assert out["matches"][0]["before"] == ["class LibraryBook(models.Model):"]
    assert out["matches"][0]["after"] == ['    _description = "Library Book"']


async def test_grep_caps_matches_with_a_note(call: Any, addons: Path) -> None:
    (addons / "many.txt").write_text("hit\n" * 50, encoding="utf-8")
    result = await call("grep", pattern="hit", path="many.txt", max_matches=10)
    out = result.structured_content
    assert len(out["matches"]) == 10 and out["truncated"] and "Stopped after 10" in out["note"]


def test_grep_skips_binary_and_clips_long_lines(ws: Workspace, addons: Path) -> None:
    (addons / "b.bin").write_bytes(b"needle\x00")
    (addons / "long.txt").write_text("needle" + "z" * 2000 + "\n", encoding="utf-8")
    result = grep(ws, "needle")
    assert [m.path for m in result.matches] == ["long.txt"]
    assert result.matches[0].text.endswith("[line cut]") and len(result.matches[0].text) < 600


async def test_grep_bad_regex_says_what_to_do(call: Any) -> None:
    assert "Escape special characters" in error_text(await call("grep", pattern="fields.Char("))


async def test_file_info(call: Any, addons: Path) -> None:
    out = (await call("file_info", path=BOOK)).structured_content
    assert out["kind"] == "file" and out["binary"] is False and out["lines"] > 30
    assert out["size"] == (addons / BOOK).stat().st_size and out["readonly"] is False
    folder = (await call("file_info", path="library_base")).structured_content
    assert folder["kind"] == "folder" and folder["lines"] is None


def test_search_files_needs_a_pattern(ws: Workspace) -> None:
    with pytest.raises(InvalidInput):
        search_files(ws, " ")


@pytest.mark.parametrize(
    ("pattern", "lines"),
    [
        ("^foo$", [1]),
        ("foo$", [1, 2]),
        (r"\bfoo\b", [1, 2]),
        (r"\Abar", [2]),  # \A is the start of each line
        (r"foo\s+bar", []),  # a match never spans lines
    ],
)
def test_grep_matches_line_by_line(ws: Workspace, addons: Path, pattern: str, lines: list[int]) -> None:
    (addons / "lines.txt").write_text("foo\nbar foo\n", encoding="utf-8")
    assert [m.line for m in grep(ws, pattern, "lines.txt").matches] == lines


@pytest.mark.parametrize(
    ("pattern", "named"),
    [
        ("(?<!bar )foo", "lookbehind"),
        ("x(?=y)", "lookahead"),
        (r"(a)\1", "backreference \\1"),
        (r"a\Z", "\\Z"),
    ],
)
def test_grep_names_the_syntax_its_linear_engine_refuses(ws: Workspace, pattern: str, named: str) -> None:
    with pytest.raises(InvalidInput, match="not supported") as refused:
        grep(ws, pattern)
    assert named in str(refused.value) and "Escape special characters" in str(refused.value)


def test_dot_means_the_writable_roots_and_the_source_is_reached_by_name(addons: Path, tmp_path: Path) -> None:
    source = tmp_path / "odoo_addons"
    (source / "sale" / "models").mkdir(parents=True)
    (source / "sale" / "models" / "sale_order.py").write_text("_name = 'sale.order'\n", encoding="utf-8")
    ws = Workspace([addons], readonly_roots=[source])
    top = list_directory(ws, ".")
    assert "sale" not in {e.path for e in top.entries} and "library_base" in {e.path for e in top.entries}
    assert top.note is not None and "read-only Odoo source" in top.note
    assert [e.path for e in list_directory(ws, "sale").entries] == ["sale/models"]
    assert all(m.path != "sale/models/sale_order.py" for m in grep(ws, "sale.order").matches)
    assert [m.path for m in grep(ws, "sale.order", "sale").matches] == ["sale/models/sale_order.py"]
    assert search_files(ws, "sale_order.py", str(source)).matches == ["sale/models/sale_order.py"]


def test_globs_with_a_slash_work_from_the_searched_folder_or_the_root(ws: Workspace) -> None:
    from_folder = search_files(ws, "views/*book*.xml", "library_base").matches
    from_root = search_files(ws, "library_base/views/*book*.xml", "library_base").matches
    assert from_folder == from_root == ["library_base/views/library_book_views.xml"]
    listed = list_directory(ws, "library_base", depth=0, exclude=["views/*.xml", "security"])
    paths = [e.path for e in listed.entries]
    assert "library_base/views" in paths and not any(p.endswith(".xml") and "/views/" in p for p in paths)
    assert not any(p.startswith("library_base/security") for p in paths)
    hits = grep(ws, "library.book", "library_loan", include=["models/*.py"]).matches
    assert hits and all(m.path.startswith("library_loan/models/") for m in hits)
