"""``check PATH...`` without an addons path, the way linters take paths: a module folder, a
folder of modules (or a repository whose modules sit in subfolders), or a file inside a module.
With no path, the current folder."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import find_manifest_file

SEARCH_DEPTH = 3  # a repository's modules may sit in addons/, src/addons/...
SKIPPED_DIRS = frozenset({"node_modules", "setup", "__pycache__", "venv", ".venv"})


def roots_for_targets(targets: Sequence[str]) -> list[Path]:
    """The addons roots holding the modules the targets name, in order, without duplicates."""
    roots: dict[Path, None] = {}
    for target in targets or ["."]:
        path = Path(os.path.realpath(target))
        module = _enclosing_module(path)
        if module is not None:
            roots[module.parent] = None
        elif path.is_dir():
            roots.update(dict.fromkeys(_folders_of_modules(path, SEARCH_DEPTH)))
    return list(roots)


def _enclosing_module(path: Path) -> Path | None:
    for folder in [path, *path.parents] if path.is_dir() else list(path.parents):
        if find_manifest_file(folder) is not None:
            return folder
    return None


def _folders_of_modules(folder: Path, depth: int) -> list[Path]:
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    if any(find_manifest_file(child) is not None for child in children):
        return [folder]
    if depth == 0:
        return []
    found: list[Path] = []
    for child in children:
        if child.name not in SKIPPED_DIRS:
            found += _folders_of_modules(child, depth - 1)
    return found
