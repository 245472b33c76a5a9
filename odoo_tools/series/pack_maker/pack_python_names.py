"""The public Python names of Odoo's framework modules, read from the ``odoo`` package's files.

Stdlib only: the pack dumper (``dump.py``, run by Odoo's own interpreter) imports this file as a
sibling, and ``scripts/core_python_names.py`` through the package. For every module of ``odoo.tools``,
``odoo.osv``, ``odoo.fields``, ``odoo.models``, ``odoo.api`` and ``odoo.http`` (a file, or a package and
everything in it): the names ``from <module> import NAME`` finds there: its functions, classes and
public assignments at top level (also inside a top-level ``if``/``try``), what it imports by name, what
``from .x import *`` brings (``__all__`` when literal), and a package's submodules. Read with ``ast``:
nothing is imported (importing every submodule of a user's Odoo could run anything its authors put
there). A module with a module-level ``__getattr__`` (names made on demand) is listed without names
and marked ``open``: nothing is claimed about it (so is one star-importing from outside Odoo). Names a
module imports from outside Odoo (``re``, ``defaultdict``) are listed too: ``from odoo.tools.misc
import defaultdict`` works as long as misc imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

TOP = ("odoo.tools", "odoo.osv", "odoo.fields", "odoo.models", "odoo.api", "odoo.http")


class Reader:
    def __init__(self, source: Path) -> None:
        self.source = source
        self.names: dict[str, set[str]] = {}
        self.star: dict[str, set[str]] = {}
        self.open: set[str] = set()
        self.busy: set[str] = set()

    def file_of(self, module: str) -> Path | None:
        base = self.source.joinpath(*module.split("."))
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
        return None

    def modules(self) -> list[str]:
        found: list[str] = []
        for top in TOP:
            path = self.file_of(top)
            if path is None:
                continue
            found.append(top)
            if path.name == "__init__.py":
                for sub in sorted(path.parent.rglob("*.py")):
                    rel = sub.relative_to(self.source).with_suffix("")
                    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
                    if "tests" not in parts and not any(p.startswith("_") for p in parts[2:]):
                        found.append(".".join(parts))
        return sorted(set(found))

    def read(self, module: str) -> set[str]:
        """``from module import NAME`` names (memoized; a cycle gives what is known so far)."""
        if module in self.names or module in self.busy:
            return self.names.get(module, set())
        self.busy.add(module)
        path = self.file_of(module)
        names: set[str] = set()
        star: set[str] | None = None
        if path is not None:
            tree = ast.parse(path.read_bytes(), filename=str(path))
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for node in _top_level(tree.body):
                names |= self._bound(node, package, module)
                star = _literal_all(node, star)
            if path.name == "__init__.py":
                names |= {
                    p.stem if p.suffix == ".py" else p.name for p in path.parent.iterdir() if _submodule(p)
                }
        self.names[module] = {n for n in names if n == "_" or not n.startswith("_")}
        self.star[module] = star if star is not None else self.names[module]
        self.busy.discard(module)
        return self.names[module]

    def _bound(self, node: ast.stmt, package: str, module: str) -> set[str]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == "__getattr__":
                self.open.add(module)
            return {node.name}
        if isinstance(node, ast.Assign):  # ``a, b = ...`` binds both (19.0's odoo.tools.pdf NameObject)
            return {n.id for t in node.targets for n in _target_names(t)}
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return {node.target.id}
        if isinstance(node, ast.Import):  # importable from the module too (``import re`` -> re)
            return {alias.asname or alias.name.partition(".")[0] for alias in node.names}
        if isinstance(node, ast.ImportFrom):
            origin = _absolute(node, package)
            if any(alias.name == "*" for alias in node.names):
                if not origin.startswith("odoo"):
                    self.open.add(module)  # a star import from outside Odoo: names not read here
                    return set()
                self.read(origin)
                return set(self.star.get(origin, set()))
            return {alias.asname or alias.name for alias in node.names}
        return set()


def _target_names(target: ast.expr) -> list[ast.Name]:
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [n for element in target.elts for n in _target_names(element)]
    return []


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    flat: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If) and _type_checking(node.test):
            flat += _top_level(node.orelse)  # names bound only for type checkers are not there at run time
        elif isinstance(node, ast.If):
            flat += _top_level(node.body) + _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            flat += _top_level(node.body) + [s for h in node.handlers for s in _top_level(h.body)]
            flat += _top_level(node.orelse)
        else:
            flat.append(node)
    return flat


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _literal_all(node: ast.stmt, current: set[str] | None) -> set[str] | None:
    """``__all__`` when the node sets it to a literal list, else what was known."""
    if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.List | ast.Tuple):
        return current
    if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
        return current
    return {e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _submodule(path: Path) -> bool:
    if path.name.startswith("_"):
        return False
    return (path.suffix == ".py") or (path.is_dir() and (path / "__init__.py").is_file())


def python_names(source: Path) -> tuple[dict[str, list[str]], list[str]]:
    """(module -> its names, the open modules) of the Odoo tree ``source`` (the folder holding ``odoo/``)."""
    reader = Reader(source)
    modules = reader.modules()
    for module in modules:
        reader.read(module)
    return {m: sorted(reader.names[m]) for m in modules if m not in reader.open}, sorted(reader.open)
