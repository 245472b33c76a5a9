"""Imports from core addons of names the step removed, told by the two series' sources:
``from odoo.addons.base.models.ir_ui_view import transfer_modifiers_to_node`` (gone in 17.0),
``from odoo.addons.purchase.models.purchase import ...`` (the file is gone in 17.0),
``from odoo.addons.account.tests.common import TestAccountReconciliationCommon``. Odoo cannot
load the file (the module's install fails, or its tests do not load): an error at the import,
nothing rewritten (what replaced the name is a person's call). An import inside a ``try`` whose
handler catches its ImportError is the module's own fallback for that series: nothing is said.
The framework's own names (``odoo.tools``...) are the series registry's lists (``removed_python``)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from odoo_tools.lint import guarded_imports
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.sources import python_tree

RULE = "removed-core-import"


def find_removed_addon_imports(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    series = report.target_series
    for rel, text in sorted(files.texts.items()):
        if (
            not rel.endswith(".py")
            or rel.startswith(("migrations/", "upgrades/"))
            or "odoo.addons." not in text
        ):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        path = files.site_path(rel)
        said = {finding.line for finding in report.findings if finding.path == path}
        guarded = guarded_imports(tree)
        for node in ast.walk(tree):
            if (
                not isinstance(node, ast.ImportFrom)
                or node.level
                or node.lineno in said
                or id(node) in guarded
            ):
                continue
            module = node.module or ""
            gone = _gone_names(module, [alias.name for alias in node.names], old_source, new_source)
            if not gone:
                continue
            what = (
                f"{module} is gone"
                if gone == [""]
                else f"{', '.join(gone)} {'was' if len(gone) == 1 else 'were'} removed from {module}"
            )
            report.find(
                RULE, path, node.lineno,
                f"{what} in Odoo {series}: this import fails when Odoo loads the file.",
                f"Read the {series} source of {module.split('.')[2]} for what replaced it.",
                severity="error",
            )  # fmt: skip


def _gone_names(module: str, names: list[str], old_source: Path, new_source: Path) -> list[str]:
    """The imported names the old core file gave and the new one does not; [''] when the whole
    file is gone. A module that is no core addon's file in the old series is not ours to judge."""
    parts = module.split(".")
    if parts[:2] != ["odoo", "addons"] or len(parts) < 4:
        return []
    old = _file(old_source, tuple(parts[2:]))
    if old is None:
        return []
    new = _file(new_source, tuple(parts[2:]))
    if new is None:
        return [""] if _addon(new_source, parts[2]) is not None else []
    old_names, new_names = _top_names(old), _top_names(new)
    if new_names is None or old_names is None:
        return []  # a star import or a module __getattr__: not sure what it gives
    return [
        name for name in names if name in old_names and name not in new_names and not _submodule(new, name)
    ]


def _addon(source: Path, name: str) -> Path | None:
    for addons in (source / "odoo" / "addons", source / "addons"):
        if (addons / name / "__manifest__.py").is_file():
            return addons / name
    return None


@functools.cache
def _file(source: Path, parts: tuple[str, ...]) -> Path | None:
    """The file ``odoo.addons.<parts>`` is in ``source`` (a module or a package's __init__)."""
    addon = _addon(source, parts[0])
    if addon is None:
        return None
    place = addon.joinpath(*parts[1:])
    if place.with_suffix(".py").is_file():
        return place.with_suffix(".py")
    return place / "__init__.py" if (place / "__init__.py").is_file() else None


def _submodule(package_init: Path, name: str) -> bool:
    """``from odoo.addons.stock.models import stock_move``: a file of the package, not a name."""
    folder = package_init.parent
    return package_init.name == "__init__.py" and (
        (folder / f"{name}.py").is_file() or (folder / name).is_dir()
    )


@functools.cache
def _top_names(path: Path) -> frozenset[str] | None:
    """The names a file defines at its top level (also under if/try), None when it may give
    more than it says (``import *``, a module ``__getattr__``)."""
    tree = python_tree(path)
    if tree is None:
        return None
    names: set[str] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        statement = todo.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            if any(alias.name == "*" for alias in statement.names):
                return None
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        elif isinstance(statement, ast.If):
            todo += statement.body + statement.orelse
        elif isinstance(statement, ast.Try):
            todo += statement.body + statement.orelse + statement.finalbody
            todo += [s for handler in statement.handlers for s in handler.body]
    return None if "__getattr__" in names else frozenset(names)
