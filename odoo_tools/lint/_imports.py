"""Which Python files of a module Odoo imports: ``__init__.py`` and what it imports with relative
imports, recursively (read by AST, nothing is run). Tests and migration scripts are run by Odoo
too. Other files (odoo-shell scripts, tools) are never loaded by the server."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from odoo_tools.sources import python_tree

RUN_BY_ODOO = ("tests", "migrations", "upgrades")


@functools.lru_cache(maxsize=256)
def imported_files(module_dir: Path) -> frozenset[Path]:
    found: set[Path] = set()
    _package(module_dir, found)
    return frozenset(found)


def loaded_by_odoo(module_dir: Path, path: Path) -> bool:
    if path.suffix != ".py" or path.name == "__manifest__.py":
        return True
    try:
        parts = path.relative_to(module_dir).parts
    except ValueError:
        return True
    return parts[0] in RUN_BY_ODOO or path in imported_files(module_dir)


def _package(folder: Path, found: set[Path]) -> None:
    init = folder / "__init__.py"
    if init in found or not init.is_file():
        return
    found.add(init)
    tree = python_tree(init)
    if tree is None:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            base = folder.joinpath(*node.module.split(".")) if node.module else folder
            targets = [base] if node.module else []
            targets += [base / alias.name for alias in node.names]
            for target in targets:
                _target(target, found)


def _target(target: Path, found: set[Path]) -> None:
    if (target / "__init__.py").is_file():
        _package(target, found)
    elif target.with_suffix(".py").is_file():
        found.add(target.with_suffix(".py"))
