"""Imports of a framework name the step took out of a package but left in one of its submodules,
where the old series gave it from both: ``from odoo.tools import column_exists`` (17.0's odoo.tools
re-exported odoo.tools.sql's names; 18.0's does not: "cannot import name 'column_exists' from
'odoo.tools'") becomes ``from odoo.tools.sql import column_exists``. Both series' lists of the
framework's public names (``series.framework_names``, read from real Odoo) tell it, for every name
of the kind: the old package and the submodule both gave the name, the new package does not, and
exactly one submodule of it still does (the same one). Anything else is left to the finding of
``removed_python``."""

from __future__ import annotations

import ast

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.series import FrameworkNames, framework_names, removed_framework_names

RULE = "moved-python-name"


def move_reexported_imports(files: ModuleFiles, report: StepReport) -> None:
    removed = removed_framework_names(str(report.source), str(report.target))
    before, after = framework_names(str(report.source)), removed.after
    if not removed.names or before is None or after is None:
        return
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or rel.startswith(("migrations/", "upgrades/")):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        lines = text.splitlines(keepends=True)
        changed = False
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module]
        for node in sorted(imports, key=lambda n: n.lineno, reverse=True):  # bottom up: lines stay put
            module = str(node.module)
            gone = removed.names.get(module, frozenset())
            homes = {a.name: _home(module, a.name, before, after) for a in node.names if a.name in gone}
            moved = {name: home for name, home in homes.items() if home}
            new_text = _rewritten(node, lines, module, moved)
            if new_text is None:
                continue
            lines[node.lineno - 1 : node.end_lineno] = [new_text]
            report.count(RULE, len(moved))
            changed = True
        if changed:
            files.texts[rel] = "".join(lines)


def _home(module: str, name: str, before: FrameworkNames, after: FrameworkNames) -> str:
    """The one submodule of ``module`` that gives ``name`` on both series ('' when none or several)."""
    prefix = f"{module}."
    homes = [
        sub
        for sub, names in after.modules.items()
        if sub.startswith(prefix) and name in names and name in before.modules.get(sub, frozenset())
    ]
    return homes[0] if len(homes) == 1 else ""


def _rewritten(node: ast.ImportFrom, lines: list[str], module: str, moved: dict[str, str]) -> str | None:
    """The import's lines with the moved names imported from their submodule; None when nothing
    moves or the statement shares its lines with other code."""
    if not moved or node.end_lineno is None or node.end_col_offset is None:
        return None
    first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
    indent = first[: node.col_offset]
    if indent.strip() or last[node.end_col_offset :].strip():
        return None  # "x = 1; from odoo.tools import y" or a trailing comment: left to the finding
    kept = [a for a in node.names if a.name not in moved]
    statements = [f"from {module} import {', '.join(_alias(a) for a in kept)}"] if kept else []
    for home in sorted(set(moved.values())):
        names = [a for a in node.names if moved.get(a.name) == home]
        statements.append(f"from {home} import {', '.join(_alias(a) for a in names)}")
    return "".join(f"{indent}{statement}\n" for statement in statements)


def _alias(alias: ast.alias) -> str:
    return f"{alias.name} as {alias.asname}" if alias.asname else alias.name
