"""Overrides of core methods the step removed, told by the two series' sources: a method of a
class extending a core model that calls ``super().<its name>()``, where the model had that method
in the source series and has it no more in the target (nor under a new name: those are renamed).
Odoo never calls it again, and the ``super()`` call raises AttributeError when the module does
(OCA mail_activity_done's ``_read_progress_bar`` on 18.0). What replaced it is a person's call:
a finding at the ``def`` line."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import metadata_of, python_modules
from odoo_tools.migrate.engine.python_rules import class_model
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.renamed_methods import renamed_to
from odoo_tools.migrate.passes.signatures import CoreMethods, core_methods

RULE = "removed-core-method"


def find_removed_methods(
    files: ModuleFiles, report: StepReport, old_source: CoreSource, new_source: CoreSource
) -> None:
    old, new = core_methods(old_source), core_methods(new_source)
    for rel, module in python_modules(files, lambda _rel, text: "super()" in text):
        wrapper = metadata_of(module)
        positions = wrapper.resolve(PositionProvider)
        path = files.site_path(rel)
        already = {finding.line for finding in report.findings if finding.path == path}
        for model, method in _gone_overrides(wrapper.module, old, new):
            line = positions[method].start.line
            if line in already:
                continue  # a rule of the step already said what became of it
            name = method.name.value
            report.find(
                RULE, path, line,
                f"{model}.{name}() is gone from core in {report.target_series}: Odoo no longer calls "
                f"this override, and its super().{name}() raises AttributeError when it runs.",
                f"Find what took over {name}() in the {report.target_series} source of {model} and move "
                "this logic there (or drop it).",
            )  # fmt: skip


def _gone_overrides(
    module: cst.Module, old: CoreMethods, new: CoreMethods
) -> list[tuple[str, cst.FunctionDef]]:
    found = []
    for statement in module.body:
        if not isinstance(statement, cst.ClassDef):
            continue
        model = class_model(statement)
        if not model or not new.knows(model):
            continue
        for item in statement.body.body:
            if not isinstance(item, cst.FunctionDef):
                continue
            name = item.name.value
            if (
                old.lookup(model, name) is not None
                and new.lookup(model, name) is None
                and renamed_to(old, new, model, name) is None
                and _calls_super(item, name)
            ):
                found.append((model, item))
    return found


def _calls_super(function: cst.FunctionDef, name: str) -> bool:
    call = m.Call(func=m.Attribute(value=m.Call(func=m.Name("super")), attr=m.Name(name)))
    return bool(m.findall(function, call))
