from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import InvalidInput
from odoo_tools.files import LineRange, read_files
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK

pytestmark = pytest.mark.anyio


def _numbered(path: Path, count: int) -> None:
    path.write_text("".join(f"line {n}\n" for n in range(1, count + 1)), encoding="utf-8")


async def test_batch_read_keeps_going_past_a_bad_file(call: Any, addons: Path) -> None:
    (addons / "blob.bin").write_bytes(b"\x89PNG\x00\x01\x02")
    result = await call("read_file", paths=[BOOK, "missing.py", "blob.bin", "library_base"])
    assert not result.is_error
    files = result.structured_content["files"]
    assert [f["path"] for f in files] == [BOOK, "missing.py", "blob.bin", "library_base"]
    assert files[0]["content"] == (addons / BOOK).read_text(encoding="utf-8")
    assert files[0]["error"] is None
    assert "No such file" in files[1]["error"]
    assert "binary" in files[2]["error"] and "base64" in files[2]["error"]
    assert files[2]["content"] is None
    assert "folder" in files[3]["error"]


async def test_line_ranges_head_tail_and_numbers(call: Any, addons: Path) -> None:
    _numbered(addons / "n.txt", 50)
    ranged = await call("read_file", paths="n.txt", offset=10, limit=3, line_numbers=True)
    item = ranged.structured_content["files"][0]
    assert item["content"] == "    10\tline 10\n    11\tline 11\n    12\tline 12\n"
    assert (item["start_line"], item["end_line"], item["total_lines"]) == (10, 12, 50)
    head = (await call("read_file", paths="n.txt", head=2)).structured_content["files"][0]
    assert head["content"] == "line 1\nline 2\n"
    tail = (await call("read_file", paths="n.txt", tail=2)).structured_content["files"][0]
    assert tail["content"] == "line 49\nline 50\n" and tail["start_line"] == 49


def test_offset_past_the_end_returns_nothing(ws: Workspace, addons: Path) -> None:
    _numbered(addons / "n.txt", 5)
    item = read_files(ws, "n.txt", lines=LineRange(offset=9)).files[0]
    assert item.content == "" and item.start_line is None and item.total_lines == 5


async def test_counts_past_any_file_size_read_to_the_end_of_the_file(call: Any, addons: Path) -> None:
    # 10**30 does not fit a C index: tail once raised OverflowError, an internal error of the tool.
    _numbered(addons / "n.txt", 3)
    everything = "line 1\nline 2\nline 3\n"
    for chosen in ({"tail": 10**30}, {"head": 10**30}, {"limit": 10**30}, {"offset": 1, "limit": 2**63}):
        result = await call("read_file", paths="n.txt", **chosen)
        assert not result.is_error, (chosen, result)
        item = result.structured_content["files"][0]
        assert (item["content"], item["start_line"], item["end_line"]) == (everything, 1, 3), chosen
    past = (await call("read_file", paths="n.txt", offset=10**30)).structured_content["files"][0]
    assert past["content"] == "" and past["start_line"] is None and past["total_lines"] == 3


def test_tail_zero_reads_nothing(ws: Workspace, addons: Path) -> None:
    _numbered(addons / "n.txt", 3)
    item = read_files(ws, "n.txt", lines=LineRange(tail=0)).files[0]
    assert item.content == "" and item.start_line is None and item.total_lines == 3


def test_contradicting_ranges_are_refused(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="one of"):
        read_files(ws, BOOK, lines=LineRange(head=3, offset=2))


def test_form_feed_does_not_shift_line_numbers(ws: Workspace, addons: Path) -> None:
    (addons / "ff.py").write_text("a\x0cb\nc\n", encoding="utf-8")
    item = read_files(ws, "ff.py", lines=LineRange(offset=2)).files[0]
    assert item.content == "c\n" and item.total_lines == 2


async def test_cap_cuts_with_a_note_saying_how_to_read_on(call: Any, addons: Path) -> None:
    line = "x" * 99 + "\n"
    (addons / "big.txt").write_text(line * 3000, encoding="utf-8")  # 300 KB
    result = await call("read_file", paths=["big.txt", BOOK])
    files = result.structured_content["files"]
    first = files[0]
    assert first["truncated"] and first["end_line"] == 2000
    assert len(first["content"]) == 200_000
    assert files[1]["content"] is None and "cap" in files[1]["error"]
    note = result.structured_content["note"]
    assert "offset=2001" in note and BOOK in note
    rest = await call("read_file", paths="big.txt", offset=2001)
    assert rest.structured_content["files"][0]["end_line"] == 3000
    assert rest.structured_content["note"] is None


def test_a_single_line_longer_than_the_cap_is_cut(ws: Workspace, addons: Path) -> None:
    (addons / "min.js").write_text("y" * 500, encoding="utf-8")
    result = read_files(ws, "min.js", max_chars=100)
    assert result.files[0].content == "y" * 100 and result.files[0].truncated
    assert result.note is not None and "longer than the cap" in result.note


async def test_binary_as_base64_when_asked(call: Any, addons: Path) -> None:
    data = bytes(range(256))
    (addons / "icon.png").write_bytes(data)
    result = await call("read_file", paths="icon.png", encoding="base64")
    item = result.structured_content["files"][0]
    assert item["encoding"] == "base64" and base64.b64decode(item["content"]) == data


def test_invalid_utf8_counts_as_binary(ws: Workspace, addons: Path) -> None:
    (addons / "latin1.txt").write_bytes("café".encode("latin-1"))
    item = read_files(ws, "latin1.txt").files[0]
    assert item.content is None and item.error is not None and "binary" in item.error


def test_outside_the_sandbox_is_an_error_entry_not_a_crash(ws: Workspace) -> None:
    result = read_files(ws, ["../../etc/passwd", "/etc/passwd", BOOK])
    assert result.files[0].error and result.files[1].error
    assert result.files[2].content


def test_too_many_paths_is_refused(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="limit"):
        read_files(ws, [BOOK] * 101)


def test_line_ranges_do_not_apply_to_base64(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="text only"):
        read_files(ws, BOOK, lines=LineRange(head=2), encoding="base64")


def test_base64_over_the_cap_is_an_error_entry_with_a_note(ws: Workspace, addons: Path) -> None:
    (addons / "big.bin").write_bytes(b"\x00" * 160_000)  # base64: 213,336 chars
    result = read_files(ws, ["big.bin"], encoding="base64")
    item = result.files[0]
    assert item.content is None and item.truncated and item.error and "own call" in item.error
    assert result.note is not None and "big.bin" in result.note
