from __future__ import annotations

import os
from pathlib import Path

import pytest

from odoo_tools.errors import InvalidInput, NotFound, SandboxViolation
from odoo_tools.files import grep
from odoo_tools.files._textio import read_regular_file, split_lines
from odoo_tools.workspace import Workspace


def test_symlink_swapped_in_after_the_check_is_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("s", encoding="utf-8")
    link = tmp_path / "link"
    link.symlink_to(secret)
    with pytest.raises(SandboxViolation, match="symlink"):
        read_regular_file(link, "link")


def test_hard_links_oversize_and_missing_are_refused(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x" * 10)
    with pytest.raises(InvalidInput, match="over the 5-byte limit"):
        read_regular_file(target, "f", max_bytes=5)
    os.link(target, tmp_path / "g")
    with pytest.raises(SandboxViolation, match="hard link"):
        read_regular_file(target, "f")
    with pytest.raises(NotFound):
        read_regular_file(tmp_path / "nope", "nope")


def test_grep_skips_hard_linked_files(ws: Workspace, addons: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("needle\n", encoding="utf-8")
    os.link(outside, addons / "linked.txt")
    assert grep(ws, "needle").matches == []


def test_split_lines_only_on_newline() -> None:
    assert split_lines("a\x0cb\r\nc\n") == ["a\x0cb\r\n", "c\n"]
    assert split_lines("a\nb") == ["a\n", "b"]
    assert split_lines("") == []
