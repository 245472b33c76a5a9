"""Declaring in the module a core field the step removed (``removed_core``): in the module's class
for that model, below its last attribute before its first method, or in a new class of
``models/<model>.py`` (or of a single ``models.py``), with its old type and comodel and a comment
that says why; and where the lines the findings name moved to."""

from __future__ import annotations

import ast

from odoo_tools.lint import RemovedField
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.passes.core_uses import ModuleModels


def _declaration(removed: RemovedField) -> str:
    comodel = f'"{removed.comodel}"' if removed.type in ("Many2one", "Many2many") else ""
    return f"{removed.name} = fields.{removed.type}({comodel})"


def declare(
    files: ModuleFiles,
    models: ModuleModels,
    model: str,
    removed: list[RemovedField],
    shifts: dict[str, list[tuple[int, int]]],
    series: str,
) -> str:
    """Add the declarations to the module; returns the module-relative file that holds them.
    ``shifts`` gets (line after which, number of lines) for each insertion into an existing file."""
    for rel, cls in models.classes:
        if cls.model != model or cls.defines:
            continue
        inserted = _insert_into_class(files, rel, cls.line, _comment(model, removed, series), removed)
        if inserted is not None:
            after, count = inserted
            shifts[rel].append((original_line(shifts[rel], after), count))
            return rel
    return _new_file(files, model, _comment(model, removed, series), removed)


def original_line(shifts: list[tuple[int, int]], line: int) -> int:
    """The line of the file as it was that is ``line`` of the file after the ``shifts``
    insertions (given on the lines as they were)."""
    offset = 0
    for after, count in sorted(shifts):
        if line <= after + offset:
            break
        if line <= after + offset + count:  # an inserted line: where it was inserted
            return after
        offset += count
    return line - offset


def _comment(model: str, removed: list[RemovedField], series: str) -> str:
    names = ", ".join(r.name for r in removed)
    return f"# Removed from Odoo's {model} in {series}, still used by this module: {names}"


def _insert_into_class(
    files: ModuleFiles, rel: str, line: int, comment: str, removed: list[RemovedField]
) -> tuple[int, int] | None:
    """Below the class's last attribute before its first method (the developer's field block):
    (the line inserted after, the number of lines), or None when the class is not fit for it."""
    text = files.texts[rel]
    tree = _parsed(text)
    if not _imports_fields(tree):
        return None
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.lineno == line), None)
    if node is None:
        return None
    leading = []
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            break
        leading.append(stmt)
    attributes = [s for s in leading if isinstance(s, ast.Assign | ast.AnnAssign)]
    anchor = attributes[-1] if attributes else None
    if anchor is None or anchor.end_lineno is None:
        return None
    indent = " " * anchor.col_offset
    lines = text.splitlines(keepends=True)
    block = [f"\n{indent}{comment}\n"] + [f"{indent}{_declaration(r)}\n" for r in removed]
    after = lines[anchor.end_lineno] if anchor.end_lineno < len(lines) else ""
    if after.strip():
        block.append("\n")
    if anchor.end_lineno == len(lines) and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    lines[anchor.end_lineno : anchor.end_lineno] = block
    files.texts[rel] = "".join(lines)
    return anchor.end_lineno, "".join(block).count("\n")


def _parsed(text: str) -> ast.Module:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return ast.Module(body=[], type_ignores=[])


def _imports_fields(tree: ast.Module) -> bool:
    """``from odoo import fields, models`` (the names a declaration and a new class use)."""
    names = {
        a.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "odoo"
        for a in n.names
        if not a.asname
    }
    return {"fields", "models"} <= names


def _new_file(files: ModuleFiles, model: str, comment: str, removed: list[RemovedField]) -> str:
    """A new class in ``models/<model>.py`` (or, in a module whose models are one ``models.py``
    importing ``fields`` and ``models``, at the end of that file)."""
    stem = model.replace(".", "_")
    class_name = "".join(part.capitalize() for part in stem.split("_"))
    body = "".join(f"    {_declaration(r)}\n" for r in removed)
    new_class = f'class {class_name}(models.Model):\n    _inherit = "{model}"\n\n    {comment}\n{body}'
    single = files.texts.get("models.py")
    if "models/__init__.py" not in files.texts and single is not None and _imports_fields(_parsed(single)):
        files.texts["models.py"] = single.rstrip("\n") + "\n\n\n" + new_class
        return "models.py"
    rel = f"models/{stem}.py"
    if rel in files.texts or rel in files.other_files:
        rel = f"models/{stem}_core_fields.py"
    files.texts[rel] = "from odoo import fields, models\n\n\n" + new_class
    module_name = rel.removeprefix("models/").removesuffix(".py")
    _import(files, "models/__init__.py", module_name)
    if "models/__init__.py" not in files.original:
        _import(files, "__init__.py", "models")
    return rel


def _import(files: ModuleFiles, rel: str, name: str) -> None:
    text = files.texts.get(rel, "")
    if text and not text.endswith("\n"):
        text += "\n"
    files.texts[rel] = text + f"from . import {name}\n"
