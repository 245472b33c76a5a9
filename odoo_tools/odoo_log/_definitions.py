"""Where a module defines a model or a field, read from its Python's syntax tree by the code index's
parser (never text search, never executed): Odoo's warnings name ``res.partner.team_id``, findings
need a file and a line."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from odoo_tools.storage import read_capped

MAX_BYTES = 2_000_000  # a generated or vendored file this big defines no model worth a warning


@dataclass(frozen=True)
class Definition:
    rel: str  # path relative to the module folder, POSIX
    line: int


def find_field(module_dir: Path, model: str, field: str) -> Definition | None:
    """The assignment ``field = fields.X(...)`` in a class whose _name or _inherit is ``model``."""
    for rel, classes in _classes(str(module_dir)):
        for info in classes:
            if info.model == model and field in info.fields:
                return Definition(rel, info.fields[field])
    return None


def find_depends(module_dir: Path, model: str, method: str) -> Definition | None:
    """The ``@api.depends(...)`` of the method ``method`` in a class of ``model`` (the method's
    own line when its names are not literals)."""
    for rel, classes in _classes(str(module_dir)):
        for info in classes:
            if info.model == model and method in info.depends:
                return Definition(rel, info.depends[method])
    return None


def find_model(module_dir: Path, model: str) -> Definition | None:
    """The class whose _name is ``model``, else the first that extends it (_inherit)."""
    extending: Definition | None = None
    for rel, classes in _classes(str(module_dir)):
        for info in classes:
            if info.model == model and info.defines:
                return Definition(rel, info.line)
            if info.model == model and extending is None:
                extending = Definition(rel, info.line)
    return extending


@dataclass(frozen=True)
class ClassInfo:
    model: str
    fields: dict[str, int]  # field -> line
    line: int
    defines: bool  # _name, not only _inherit
    depends: dict[str, int]  # method -> line of its @api.depends (else of the method)


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
    """The model classes of one file, as the code index reads them (``parse_python``: the one
    reading of a model class, so a warning's field is found where the index says it is)."""
    from odoo_tools.index import parse_python  # lxml and the rest of the index: only when a log names a field

    try:
        data = read_capped(path, MAX_BYTES)  # a pipe named x.py never blocks
    except OSError:
        return []
    if data is None:
        return []
    models = parse_python(data, path, "").models
    return [
        ClassInfo(
            m.model,
            {f.name: f.line for f in m.fields},
            m.line,
            m.defines,
            {
                f.name: next((line for kind, line, _ in f.field_names if kind == "depends"), f.line)
                for f in m.methods
            },
        )
        for m in models
    ]
