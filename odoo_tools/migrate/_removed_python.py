"""Imports of framework names a series step removed (``odoo_tools.series.removed_framework_names``:
``from odoo.tools import submap`` on 18.0): an error at the import line, since Odoo cannot load the
module; and ``tools.X`` where ``tools`` was imported from ``odoo`` (``from odoo import tools``), an
error where it is read. Nothing is rewritten: what replaced a name is for a person to choose (the
hint names the modules that still give it)."""

from __future__ import annotations

import ast

from odoo_tools.migrate._module_files import ModuleFiles
from odoo_tools.migrate._report import StepReport
from odoo_tools.series import RemovedNames, removed_framework_names

RULE = "removed-python-name"


def find_removed_imports(files: ModuleFiles, report: StepReport) -> None:
    removed = removed_framework_names(f"{report.source}.0", f"{report.target}.0")
    if not removed.modules and not removed.names:
        return
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or rel.startswith(("migrations/", "upgrades/")):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for module, name, line in _uses(tree, removed):
            path = files.site_path(rel)
            said = any(f.path == path and f.line == line and name in f.message for f in report.findings)
            if not said:  # a rule of the step's table already tells (or rewrote) this one
                _finding(report, removed, path, line, module, name)


def _uses(tree: ast.Module, removed: RemovedNames) -> list[tuple[str, str, int]]:
    """(module, name, line) of each import or read of a removed name ("" name: the module)."""
    found: list[tuple[str, str, int]] = []
    bound: dict[str, str] = {}  # local name -> framework module (``from odoo import tools``)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names if a.name in removed.modules]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module in removed.modules:
                found.append((node.module, "", node.lineno))
                continue
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in removed.modules:
                    found.append((submodule, "", node.lineno))
                elif removed.removed(node.module, alias.name):
                    found.append((node.module, alias.name, getattr(alias, "lineno", node.lineno)))
                elif removed.after is not None and submodule in removed.after.modules:
                    bound[alias.asname or alias.name] = submodule
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            module = bound[node.value.id]
            if removed.removed(module, node.attr):
                found.append((module, node.attr, node.lineno))
    return sorted(set(found), key=lambda use: (use[2], use[0], use[1]))


def _finding(report: StepReport, removed: RemovedNames, path: str, line: int, module: str, name: str) -> None:
    series = report.target_series
    if not name:
        report.find(
            RULE, path, line,
            f"The module {module} was removed from Odoo in {series}: importing it fails when Odoo loads "
            "this module.",
            f"Read the {series} source for what replaced it.",
            severity="error",
        )  # fmt: skip
        return
    family = ".".join(module.split(".")[:2])  # odoo.tools.misc first for a name of odoo.tools
    elsewhere = sorted((m for m in removed.still_in(name) if m != module), key=lambda m: (family not in m, m))
    hint = (
        f"{series} still gives {name} from {', '.join(elsewhere[:3])}: check it is the same one and "
        "import it from there."
        if elsewhere
        else f"Read the {series} source for what replaced it, or copy what the module needs into it."
    )
    report.find(
        RULE, path, line,
        f"{module}.{name} was removed from Odoo in {series}: the module fails when Odoo loads it (an import) "
        "or runs this line.",
        hint,
        severity="error",
    )  # fmt: skip
