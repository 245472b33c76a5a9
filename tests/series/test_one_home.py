"""Per-series knowledge has one home, ``odoo_tools/series``: the lower layers never import upwards
to reach it, and no per-series data is left elsewhere."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "odoo_tools"


def _imports(folder: Path) -> list[tuple[str, str, bool]]:
    """(file, imported module, whether the import sits inside a function) for every import."""
    found: list[tuple[str, str, bool]] = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nested = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) for n in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.append((path.name, node.module, id(node) in nested))
            elif isinstance(node, ast.Import):
                found.extend((path.name, alias.name, id(node) in nested) for alias in node.names)
    return found


def test_the_index_and_the_series_do_not_import_the_checks() -> None:
    assert [i for i in _imports(PACKAGE / "index") if i[1].startswith("odoo_tools.lint")] == []
    upward = ("odoo_tools.lint", "odoo_tools.index", "odoo_tools.addons", "odoo_tools.migrate")
    assert [i for i in _imports(PACKAGE / "series") if i[1].startswith(upward)] == []


def test_the_core_lists_of_the_checks_import_at_the_top() -> None:
    assert [i for i in _imports(PACKAGE / "lint") if i[0] == "_core_fields.py" and i[2]] == []


def test_no_per_series_data_outside_the_series_package() -> None:
    strays = [
        p for p in PACKAGE.rglob("*") if p.is_dir() and p.name in ("core_modules", "core_fields", "packs")
    ]
    assert all(p.parent == PACKAGE / "series" for p in strays), strays
