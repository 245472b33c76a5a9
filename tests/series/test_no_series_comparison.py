"""No code outside ``odoo_tools/series`` branches on a series number: it asks the registry.

What counts as branching on a series (an AST walk over odoo_tools and assista_mcp):
- an ordering comparison (<, <=, >, >=) of anything named *major* or *series*;
- any comparison of such a name with a number (``major == 19``, ``major in (17, 18)``);
- series arithmetic: ``float()``/``int()`` of such a name;
- a series literal (``"18.0"``, ``"saas~17.2"``) compared with, or used as a key (a table of facts
  per series kept outside the registry).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCANNED = ("odoo_tools", "assista_mcp")
REGISTRY = REPO / "odoo_tools" / "series"
_SERIES_WORDS = re.compile(r"major|serie", re.IGNORECASE)
_SERIES_LITERAL = re.compile(r"^(saas~\d{2}\.\d|([89]|[1-9]\d)\.0)$")  # Odoo's series: 8.0 on
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _names(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Attribute):
            yield sub.attr


def _about_series(node: ast.AST) -> bool:
    return any(_SERIES_WORDS.search(name) for name in _names(node))


def _numeric(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_numeric(e) for e in node.elts)
    return False


def _number_of(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float")


def _series_literals(node: ast.AST) -> list[str]:
    """The series written as string literals in ``node`` (a constant, or a tuple/list/set of them)."""
    parts = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    values = [p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)]
    return [v for v in values if _SERIES_LITERAL.match(v)]


def series_branches(source: str, name: str) -> list[str]:
    """``file:line: what`` for every place ``source`` branches on a series by itself."""
    tree = ast.parse(source, name)
    found = []
    for node in ast.walk(tree):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literal = next((lit for o in operands for lit in _series_literals(o)), None)
            if literal is not None:
                found.append(f"{where}: compares with the series {literal!r} ({ast.unparse(node)})")
            elif not any(_about_series(o) for o in operands):
                continue
            elif any(isinstance(op, _ORDERING) for op in node.ops):
                found.append(f"{where}: orders a series ({ast.unparse(node)})")
            elif any(_numeric(o) for o in operands):
                found.append(f"{where}: compares a series with a number ({ast.unparse(node)})")
        elif _number_of(node) and any(_about_series(arg) for arg in getattr(node, "args", [])):
            found.append(f"{where}: computes with a series ({ast.unparse(node)})")
        elif isinstance(node, ast.Dict):
            for literal in (lit for key in node.keys if key is not None for lit in _series_literals(key)):
                found.append(f"{where}: keys facts by the series {literal!r}")
        elif isinstance(node, ast.Subscript):
            for literal in _series_literals(node.slice):
                found.append(f"{where}: looks up the series {literal!r}")
    return found


def _scanned_files() -> Iterator[Path]:
    for package in SCANNED:
        for path in sorted((REPO / package).rglob("*.py")):
            if REGISTRY not in path.parents:
                yield path


def test_no_series_comparison_outside_the_registry() -> None:
    found = [
        hit
        for path in _scanned_files()
        for hit in series_branches(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    ]
    assert found == [], "ask odoo_tools.series instead:\n" + "\n".join(found)


def test_the_walk_finds_each_kind_of_series_branch() -> None:
    planted = '''
"""A docstring may say 18.0."""
def demo(odoo, facts, project):
    """So may this one: "19.0"."""
    if odoo.major >= 19:
        pass
    if project.series_major in (17, 18):
        pass
    weight = float(project.series)
    pins = {"18.0": (0, 0, 33)}
    if version in ("17.0", "18.0"):
        pass
    note = LABELS["19.0"]
    fine = facts.demo_opt_in and project.series is not None and f"{odoo.series}.x" != "x"
    checked_on = Rule("error", ("18.0",), "the install fails")
'''
    found = series_branches(planted, "planted.py")
    assert [hit.split(": ", 1)[1].split(" (")[0] for hit in found] == [
        "orders a series",
        "compares a series with a number",
        "computes with a series",
        "keys facts by the series '18.0'",
        "compares with the series '17.0'",
        "looks up the series '19.0'",
    ]
    assert [hit.split(":")[1] for hit in found] == ["5", "7", "9", "10", "11", "13"]
