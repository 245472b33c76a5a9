"""Imports of framework names a series step removed (``odoo_tools.series.removed_framework_names``:
``from odoo.tools import submap`` on 18.0): an error at the import line, since Odoo cannot load the
module; and ``tools.X`` where ``tools`` was imported from ``odoo`` (``from odoo import tools``), an
error where it is read. Nothing is rewritten: what replaced a name is for a person to choose (the
hint names the modules that still give it)."""

from __future__ import annotations

import ast

from odoo_tools.lint import NameUse, removed_name_uses, still_given
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.series import RemovedNames, removed_framework_names

RULE = "removed-python-name"


def find_removed_imports(files: ModuleFiles, report: StepReport) -> None:
    removed = removed_framework_names(f"{report.source}", f"{report.target}")
    if not removed.modules and not removed.names:
        return
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or rel.startswith(("migrations/", "upgrades/")):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for use in removed_name_uses(tree, removed):
            path = files.site_path(rel)
            said = any(
                f.path == path and f.line == use.line and use.name in f.message for f in report.findings
            )
            if not said:  # a rule of the step's table already tells (or rewrote) this one
                _finding(report, removed, path, use)


def _finding(report: StepReport, removed: RemovedNames, path: str, use: NameUse) -> None:
    series, module, name, line = report.target_series, use.module, use.name, use.line
    if not name:
        report.find(
            RULE, path, line,
            f"The module {module} was removed from Odoo in {series}: importing it fails when Odoo loads "
            "this module.",
            f"Read the {series} source for what replaced it.",
            severity="error",
        )  # fmt: skip
        return
    fails = "importing it fails when Odoo loads the file" if use.imported else "this line fails when it runs"
    elsewhere = still_given(removed, module, name)
    hint = (
        f"{series} still gives {name} from {', '.join(elsewhere[:3])}: check it is the same one and "
        "import it from there."
        if elsewhere
        else f"Read the {series} source for what replaced it, or copy what the module needs into it."
    )
    report.find(
        RULE, path, line,
        f"{module}.{name} was removed from Odoo in {series}: {fails}.",
        hint,
        severity="error",
    )  # fmt: skip
