from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import EditConflict, InvalidInput
from odoo_tools.files import Edit, edit_file
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK, error_text

pytestmark = pytest.mark.anyio


async def test_edits_apply_in_order_and_return_the_diff(call: Any, addons: Path) -> None:
    result = await call(
        "edit_file",
        path=BOOK,
        edits=[
            {"old_text": "pages = fields.Integer()", "new_text": 'pages = fields.Integer(string="Pages")'},
            {"old_text": 'string="Pages"', "new_text": 'string="Page Count"'},
        ],
    )
    assert not result.is_error, result
    out = result.structured_content
    assert out["changed"] and not out["dry_run"]
    assert [e["strategy"] for e in out["edits"]] == ["exact", "exact"]
    assert '+    pages = fields.Integer(string="Page Count")' in out["diff"]
    assert 'pages = fields.Integer(string="Page Count")' in (addons / BOOK).read_text(encoding="utf-8")


async def test_second_edit_failing_writes_nothing(call: Any, addons: Path) -> None:
    before = (addons / BOOK).read_bytes()
    result = await call(
        "edit_file",
        path=BOOK,
        edits=[
            {"old_text": "pages = fields.Integer()", "new_text": "pages = fields.Float()"},
            {"old_text": "this text is nowhere", "new_text": "x"},
        ],
    )
    message = error_text(result)
    assert "edit 2 of 2" in message and "Nothing was written" in message
    assert (addons / BOOK).read_bytes() == before


async def test_ambiguous_match_says_how_many_and_where(call: Any, addons: Path) -> None:
    before = (addons / BOOK).read_bytes()
    result = await call(
        "edit_file", path=BOOK, edits=[{"old_text": "fields.Char(", "new_text": "fields.Text("}]
    )
    message = error_text(result)
    assert "matches 2 places (lines 12, 13)" in message
    assert (addons / BOOK).read_bytes() == before


async def test_no_match_shows_the_closest_region(call: Any) -> None:
    result = await call(
        "edit_file", path=BOOK, edits=[{"old_text": "pages = fields.Integr(required=True)", "new_text": "x"}]
    )
    message = error_text(result)
    assert "not found" in message and "Closest region" in message
    assert "    16\t    pages = fields.Integer()" in message


def test_whitespace_tolerant_match_keeps_the_file_indentation(ws: Workspace, addons: Path) -> None:
    target = addons / "library_base" / "indent.py"
    target.write_text("class A:\n    def f(self):\n        if x:\n            return 1\n", encoding="utf-8")
    result = edit_file(
        ws,
        "library_base/indent.py",
        [Edit(old_text="if x:\n    return 1", new_text="if x:\n    log()\n    return 2")],
    )
    assert result.edits[0].strategy == "whitespace" and result.edits[0].line == 3
    assert target.read_text(encoding="utf-8") == (
        "class A:\n    def f(self):\n        if x:\n            log()\n            return 2\n"
    )


def test_whitespace_tolerant_ambiguity_is_refused(ws: Workspace, addons: Path) -> None:
    target = addons / "dup.py"
    target.write_text("  a = 1\n\tb = 2\n    a  =  1\n", encoding="utf-8")
    with pytest.raises(EditConflict, match=r"2 places \(lines 1, 3\)"):
        edit_file(ws, "dup.py", [Edit("a = 1 ", "a = 3")])


async def test_dry_run_returns_the_diff_without_writing(call: Any, addons: Path) -> None:
    before = (addons / BOOK).read_bytes()
    result = await call(
        "edit_file",
        path=BOOK,
        dry_run=True,
        edits=[{"old_text": '_order = "name, id"', "new_text": '_order = "id"'}],
    )
    out = result.structured_content
    assert out["dry_run"] and out["changed"]
    assert '-    _order = "name, id"' in out["diff"] and '+    _order = "id"' in out["diff"]
    assert (addons / BOOK).read_bytes() == before


def test_crlf_file_keeps_crlf(ws: Workspace, addons: Path) -> None:
    target = addons / "win.py"
    target.write_bytes(b"a = 1\r\nb = 2\r\n")
    edit_file(ws, "win.py", [Edit("b = 2\n", "b = 3\nc = 4\n")])
    assert target.read_bytes() == b"a = 1\r\nb = 3\r\nc = 4\r\n"


def test_empty_or_identical_edits_are_refused(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="empty"):
        edit_file(ws, BOOK, [Edit("", "x")])
    with pytest.raises(InvalidInput, match="identical"):
        edit_file(ws, BOOK, [Edit("a", "a")])
    with pytest.raises(InvalidInput, match="No edits"):
        edit_file(ws, BOOK, [])


def test_binary_file_is_refused(ws: Workspace, addons: Path) -> None:
    (addons / "b.bin").write_bytes(b"\x00\x01abc")
    with pytest.raises(InvalidInput, match="binary"):
        edit_file(ws, "b.bin", [Edit("abc", "x")])


def test_deleting_lines_with_whitespace_match(ws: Workspace, addons: Path) -> None:
    target = addons / "del.py"
    target.write_text("x = 1\n    y = 2\nz = 3\n", encoding="utf-8")
    result = edit_file(ws, "del.py", [Edit("y  =  2", "")])
    assert result.edits[0].strategy == "whitespace"
    assert target.read_text(encoding="utf-8") == "x = 1\nz = 3\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # old_text's indentation is off in a different way on each line: each maps to the file's.
        ("x = 1\n  return x\n", "x = 2\n  return x\n", "        x = 2\n        return x\n"),
        # deeper lines keep their extra depth; a blank line new_text adds (after its last newline) is kept.
        (
            "x = 1\nreturn x",
            "x = 1\nif x:\n    return x\n\n",
            "        x = 1\n        if x:\n            return x\n\n",
        ),
        # a blank line around old_text (not matched) does not turn into an extra blank line.
        (
            "\nx = 1\nreturn x\n",
            "\n\n# why\nx = 1\nreturn x\n",
            "\n        # why\n        x = 1\n        return x\n",
        ),
    ],
)
def test_reindent_follows_the_file(ws: Workspace, addons: Path, old: str, new: str, expected: str) -> None:
    target = addons / "ind.py"
    head = "class A:\n    def f(self):\n"
    target.write_text(head + "        x = 1\n        return x\n", encoding="utf-8")
    result = edit_file(ws, "ind.py", [Edit(old, new)])
    assert result.edits[0].strategy == "whitespace"
    assert target.read_text(encoding="utf-8") == head + expected
