"""What of the target series' core a module sees: its manifest's dependencies, closed over the
target pack's module graph. A rule that writes a core field only some modules define (18.0's
``is_storable`` is stock's) asks ``sees_field`` first: writing it where the module does not depend
on its module is an install error ("Invalid field")."""

from __future__ import annotations

import ast

from odoo_tools.migrate.engine.manifest_step import manifest_rel
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.series import pack


def core_closure(files: ModuleFiles, target: str) -> frozenset[str] | None:
    """The target pack's modules the module depends on, transitively (None when the pack or the
    manifest's depends cannot be read, or one of them is not a core module of the target series:
    then nothing is known to be out of reach)."""
    found = pack(target)
    depends = manifest_depends(files)
    if found is None or depends is None or not all(d in found.modules for d in depends):
        return None  # a dependency outside the core may bring any core module along
    return found.closure(["base", *depends])


def manifest_depends(files: ModuleFiles) -> list[str] | None:
    """The manifest's ``depends`` (None when the manifest cannot be read as a literal or the list
    is not one of names): the one reading of it migrate's passes share."""
    rel = manifest_rel(files)
    try:
        manifest = ast.literal_eval(files.texts[rel]) if rel is not None else None
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    depends = manifest.get("depends", []) if isinstance(manifest, dict) else None
    if not isinstance(depends, list) or not all(isinstance(d, str) for d in depends):
        return None
    return depends


def sees_field(report: StepReport, model: str, field: str) -> bool:
    """Whether the module's dependency closure has ``model.field`` on the target series (True when
    the closure or the pack is unknown, or the module declares a field of that name itself)."""
    found = pack(str(report.target))
    if report.core_closure is None or found is None or field in report.own_fields:
        return True
    core_model = found.model(model)
    core_field = core_model.fields.get(field) if core_model is not None else None
    return core_field is not None and any(m in report.core_closure for m in core_field.modules)
