"""Where Python code imports or reads a framework name that a series no longer gives
(``odoo_tools.series.RemovedNames``): ``from odoo.tools import submap``, ``import
odoo.tools.num2words_patch``, ``tools.X`` after ``from odoo import tools``. Used by migrate (what a
step removed) and by the static checks (what the project's series no longer has). An import inside a
``try`` whose ``except`` catches its ImportError (``guarded_imports``) is the module's own fallback
for a series without the name: loading the file does not fail there."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from odoo_tools.series import RemovedNames

# What an ``except`` may name to catch a failed import
CATCHING_IMPORT_ERROR = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


@dataclass(frozen=True)
class NameUse:
    module: str
    name: str  # "" when the module itself is gone
    line: int
    imported: bool = True  # False: read as an attribute (``tools.X``), which fails when the line runs


def removed_name_uses(tree: ast.Module, removed: RemovedNames) -> list[NameUse]:
    """Each import or read of a removed name or module, by line."""
    found: set[NameUse] = set()
    bound: dict[str, str] = {}  # local name -> framework module (``from odoo import tools``)
    guarded = guarded_imports(tree)
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            found |= {NameUse(a.name, "", node.lineno) for a in node.names if a.name in removed.modules}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module in removed.modules:
                found.add(NameUse(node.module, "", node.lineno))
                continue
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in removed.modules:
                    found.add(NameUse(submodule, "", node.lineno))
                elif removed.removed(node.module, alias.name):
                    found.add(NameUse(node.module, alias.name, getattr(alias, "lineno", node.lineno)))
                elif removed.after is not None and submodule in removed.after.modules:
                    bound[alias.asname or alias.name] = submodule
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            module = bound[node.value.id]
            if removed.removed(module, node.attr):
                found.add(NameUse(module, node.attr, node.lineno, imported=False))
    return sorted(found, key=lambda use: (use.line, use.module, use.name))


def guarded_imports(tree: ast.AST) -> set[int]:
    """The imports (by id) that run inside a ``try`` body one of whose handlers catches their
    ImportError: when the name is gone, the module's fallback runs instead."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, ast.TryStar)) and any(_catches_import_error(h) for h in node.handlers):
            todo: list[ast.AST] = list(node.body)
            while todo:
                inner = todo.pop()
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    guarded.add(id(inner))
                elif not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    todo += ast.iter_child_nodes(inner)  # a function's body runs later, outside the try
    return guarded


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True  # a bare except
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in CATCHING_IMPORT_ERROR for t in types)


def still_given(removed: RemovedNames, module: str, name: str) -> list[str]:
    """The newer series' modules that still give ``name``, those of the same family first."""
    family = ".".join(module.split(".")[:2])  # odoo.tools.misc first for a name of odoo.tools
    return sorted((m for m in removed.still_in(name) if m != module), key=lambda m: (family not in m, m))
