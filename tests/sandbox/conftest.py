"""A hostile tree around an addons root: links, hard links, siblings and special files pointing out."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

SECRET = "TOP-SECRET-OUTSIDE-THE-ROOTS"


@dataclass(frozen=True)
class Tree:
    base: Path  # holds everything below
    root: Path  # the writable addons root
    sibling: Path  # "addons2": shares the root's name as a prefix
    outside: Path  # a folder outside every root
    readonly: Path  # a read-only root (an Odoo source's addons)
    secret: Path  # a file outside whose bytes must never come back


def build_tree(base: Path) -> Tree:
    root, sibling, outside = (base / n for n in ("addons", "addons2", "outside"))
    readonly = base / "odoo" / "addons"  # the addons folder of an Odoo source (--odoo-path)
    for folder in (root / "m" / "models", sibling / "m", outside / "sub", readonly / "base"):
        folder.mkdir(parents=True)
    secret = outside / "secret.txt"
    secret.write_text(SECRET)
    (outside / "sub" / "deep.txt").write_text(SECRET)
    (sibling / "m" / "secret.py").write_text(SECRET)
    (readonly / "base" / "models.py").write_text("# odoo core\n")
    (root / "m" / "__init__.py").write_text("from . import models\n")
    (root / "m" / "models" / "book.py").write_text("class Book:\n    pass\n")
    links = {
        "link_file_out": secret,
        "link_dir_out": outside,
        "link_parent_out": base,
        "link_root_parent": Path(".."),
        "dangling_out": outside / "missing.txt",
        "dangling_out_dir": outside / "missing_dir",
        "dangling_in": Path("m/new_from_link.txt"),
        "link_in": Path("m/__init__.py"),
        "link_to_sibling": sibling,
        "link_to_readonly": readonly / "base",
        "loop_a": Path("loop_b"),
        "loop_b": Path("loop_a"),
        "link_chain_1": Path("link_chain_2"),
        "link_chain_2": Path("link_file_out"),
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    (root / "m" / "models" / "link_up_out").symlink_to(Path("../../../outside"))
    (outside / "link_back").symlink_to(root / "m")  # outside, pointing in
    os.link(secret, root / "hard_out.txt")
    os.mkfifo(root / "fifo")
    return Tree(base=base, root=root, sibling=sibling, outside=outside, readonly=readonly, secret=secret)


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return build_tree(tmp_path)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder`` (files by content, links by target), to prove nothing changed."""
    state: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            key = str(path.relative_to(folder))
            if path.is_symlink():
                state[key] = "-> " + os.readlink(path)
            elif path.is_file():
                state[key] = path.read_bytes()
            else:
                state[key] = "dir" if path.is_dir() else "special"
    return state
