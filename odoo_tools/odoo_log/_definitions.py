"""Where a module defines a model or a field, read from its Python's syntax tree (never text search,
never executed): Odoo's warnings name ``res.partner.team_id``, findings need a file and a line."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MAX_BYTES = 2_000_000  # a generated or vendored file this big defines no model worth a warning


@dataclass(frozen=True)
class Definition:
    rel: str  # path relative to the module folder, POSIX
    line: int


def find_field(module_dir: Path, model: str, field: str) -> Definition | None:
    """The assignment ``field = fields.X(...)`` in a class whose _name or _inherit is ``model``."""
    for rel, classes in _classes(str(module_dir)):
        for models, fields, _line in classes:
            if model in models and field in fields:
                return Definition(rel, fields[field])
    return None


def find_model(module_dir: Path, model: str) -> Definition | None:
    """The class whose _name (else _inherit) is ``model``."""
    for rel, classes in _classes(str(module_dir)):
        for models, _fields, line in classes:
            if model in models:
                return Definition(rel, line)
    return None


ClassInfo = tuple[frozenset[str], dict[str, int], int]  # (models, field -> line, class line)


def _classes(module_dir: str) -> list[tuple[str, list[ClassInfo]]]:
    found = []
    for path in _python_files(module_dir):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        if stat.st_size <= MAX_BYTES:
            classes = _parse(path, stat.st_mtime_ns, stat.st_size)
            if classes:
                found.append((os.path.relpath(path, module_dir).replace(os.sep, "/"), classes))
    return found


def _python_files(module_dir: str) -> list[str]:
    files = []
    for folder, dirs, names in os.walk(module_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".py")]
    return files


@lru_cache(maxsize=2048)
def _parse(path: str, _mtime_ns: int, _size: int) -> list[ClassInfo]:
    try:
        tree = ast.parse(Path(path).read_bytes(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return []
    return [_class_info(node) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def _class_info(node: ast.ClassDef) -> ClassInfo:
    names: list[str] = []
    inherits: list[str] = []
    fields: dict[str, int] = {}
    for stmt in node.body:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            continue
        target = stmt.targets[0]
        if not isinstance(target, ast.Name):
            continue
        if target.id == "_name":
            names += _strings(stmt.value)
        elif target.id == "_inherit":
            inherits += _strings(stmt.value)
        elif _is_field_call(stmt.value):
            fields[target.id] = stmt.lineno
    return frozenset(names or inherits[:1]), fields, node.lineno  # _inherit alone extends its first


def _strings(value: ast.expr) -> list[str]:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, (ast.List, ast.Tuple)):
        return [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _is_field_call(value: ast.expr) -> bool:
    """``fields.Many2one(...)`` (or ``Many2one(...)`` imported by name)."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute):
        return isinstance(func.value, ast.Name) and func.value.id == "fields"
    return isinstance(func, ast.Name) and func.id[:1].isupper()
