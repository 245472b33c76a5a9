"""Class attributes every model had that the step kept for transient models only, read from the
two series' sources: 18.0's ``BaseModel._transient_max_hours = lazy_classproperty(lambda _:
config.get('transient_age_limit'))`` is only ``TransientModel``'s in 19.0, so a regular model
reading ``self._transient_max_hours`` fails there ("'ir.actions.actions' object has no attribute
'_transient_max_hours'", custom 18.0 base_temporary_action's autovacuum).

In a class of ``models.Model`` or ``models.AbstractModel``, ``self.<attribute>`` becomes the value
the old ``BaseModel`` computed (``config.get('transient_age_limit')``), importing ``config`` from
``odoo.tools`` when the file does not. A module that sets the attribute itself keeps its reads,
a warning each (the read works in a class that sets it); a file that binds ``config`` to something
else keeps them too, an error each."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import dotted
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.sources import python_tree

RULE = "moved-transient-attribute"
_REGULAR = ("models.Model", "models.AbstractModel", "Model", "AbstractModel")


def _class_body(source: Path, files: tuple[str, ...], name: str) -> dict[str, ast.expr]:
    """The assignments of class ``name`` in the first of ``files`` that defines it."""
    for rel in files:
        tree = python_tree(source / rel)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return {
                    t.id: item.value
                    for item in node.body
                    if isinstance(item, ast.Assign)
                    for t in item.targets
                    if isinstance(t, ast.Name)
                }
    return {}


@cache
def moved_attributes(old_source: Path, new_source: Path) -> dict[str, str]:
    """Attribute -> the old BaseModel's value (source of a ``lazy_classproperty(lambda _: ...)``
    reading only ``config``), for those the new BaseModel lacks and the new TransientModel has."""
    models = ("odoo/models.py", "odoo/orm/models.py")
    old = _class_body(old_source, models, "BaseModel")
    new = _class_body(new_source, models, "BaseModel")
    transient = _class_body(new_source, (*models, "odoo/orm/models_transient.py"), "TransientModel")
    if not new:
        return {}
    moved: dict[str, str] = {}
    for name, value in old.items():
        if name in new or name not in transient:
            continue
        body = _lazy_value(value)
        if body is not None and {n.id for n in ast.walk(body) if isinstance(n, ast.Name)} == {"config"}:
            moved[name] = ast.unparse(body)
    return moved


def _lazy_value(value: ast.expr) -> ast.expr | None:
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and len(value.args) == 1):
        return None
    lazy = value.args[0]
    if value.func.id != "lazy_classproperty" or not isinstance(lazy, ast.Lambda):
        return None
    return lazy.body


def rewrite_transient_attributes(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    moved = moved_attributes(old_source, new_source)
    if not moved:
        return
    python = [text for rel, text in files.texts.items() if rel.endswith(".py")]
    for rel, module in python_modules(files, lambda _rel, text: any(f"self.{a}" in text for a in moved)):
        own = {a for a in moved if any(f"{a} =" in text for text in python)}  # the module sets it
        config_elsewhere = _binds_config_otherwise(module)
        reads = _Reads(moved, own, config_elsewhere, report, files.site_path(rel))
        rewritten = transform(module, reads)
        if reads.rewrote and not _imports_config(module):
            context = CodemodContext()
            AddImportsVisitor.add_needed_import(context, "odoo.tools", "config")
            rewritten = AddImportsVisitor(context).transform_module(rewritten)
        keep_rewrite(files, rel, module, rewritten)


def _imports_config(module: cst.Module) -> bool:
    return any(
        isinstance(s, cst.ImportFrom)
        and s.module is not None
        and dotted(s.module) == "odoo.tools"
        and not isinstance(s.names, cst.ImportStar)
        and any(
            isinstance(a.name, cst.Name) and a.name.value == "config" and a.asname is None for a in s.names
        )
        for line in module.body
        if isinstance(line, cst.SimpleStatementLine)
        for s in line.body
    )


def _binds_config_otherwise(module: cst.Module) -> bool:
    """``config`` in the file is something else than ``odoo.tools.config``."""
    return "config" in module.code and not _imports_config(module) and _names(module, "config")


def _names(module: cst.Module, name: str) -> bool:
    found: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append(node)

    module.visit(Names())
    return bool(found)


class _Reads(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self, moved: dict[str, str], own: set[str], config_elsewhere: bool, report: StepReport, path: str
    ) -> None:
        super().__init__()
        self.moved, self.own, self.report, self.path = moved, own, report, path
        self.config_elsewhere = config_elsewhere
        self.regular: list[bool] = []
        self.rewrote = False
        self.quote = "'"  # the file's own quotes (the values' strings hold none)

    def visit_Module(self, node: cst.Module) -> None:
        code = node.code
        self.quote = '"' if code.count('"') > code.count("'") else "'"

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.regular.append(any(dotted(b.value) in _REGULAR for b in node.bases))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.regular.pop()
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        name = original.attr.value
        if (
            name not in self.moved
            or dotted(original.value) != "self"
            or not (self.regular and self.regular[-1])
        ):
            return updated
        line = int(self.get_metadata(PositionProvider, original).start.line)
        series = self.report.target_series
        if name in self.own:  # the read works where a class of the model sets it, fails elsewhere
            self.report.find(
                RULE, self.path, line,
                f"{name} is only a transient model's in {series}; this regular model reads it and the "
                "module sets it somewhere: not rewritten, the read fails unless this model sets it.",
                f"Read the value the model meant ({self.moved[name]}) where the model does not set it.",
            )  # fmt: skip
            return updated
        if self.config_elsewhere:
            self.report.find(
                RULE, self.path, line,
                f"{name} is only a transient model's in {series}; this regular model reads it, and the "
                "file's config is not odoo.tools.config: not rewritten, it fails there.",
                f"Read the value the model meant ({self.moved[name]}) where it is needed.",
                "error",
            )  # fmt: skip
            return updated
        self.report.count(RULE)
        self.rewrote = True
        return cst.parse_expression(self.moved[name].replace("'", self.quote))
