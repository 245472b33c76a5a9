"""A removed core Selection field the module extends with ``selection_add``: with no core field
left to extend, Odoo refuses the module's declaration ("Field ... without selection"). Its old
values are read from the source series' Odoo source (the module that defines the model, by AST:
nothing is imported) and written into the module's declaration, which becomes a ``selection=``
of the old values and its own: the module's field then has the values it had on the old series."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from odoo_tools.index import FieldDef
from odoo_tools.lint import CoreDifference, core_graph
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.passes.core_uses import ModuleModels
from odoo_tools.sources import python_tree

MAX_BYTES = 2_000_000
_WIDTH = 88  # the longest line written (black's, which OCA's checks apply)

RULE = "removed-core-field"
Selection = list[tuple[str, str]]


def complete_selections(
    files: ModuleFiles,
    models: ModuleModels,
    diff: CoreDifference,
    report: StepReport,
    old_source: Path | None,
    shifts: dict[str, list[tuple[int, int]]],
) -> None:
    """Give the old values to each removed core Selection field the module only extends, when
    one class of the module does (with several, the one Odoo loads first must hold them: left to
    a person); a finding at each. ``shifts`` gets (line after which, number of lines) for each
    insertion."""
    extending: dict[tuple[str, str], list[tuple[str, FieldDef]]] = {}
    for rel, cls in models.classes:
        for fdef in cls.fields:
            removed = diff.removed_field(cls.model, fdef.name)
            if removed is not None and removed.type == "Selection":
                extending.setdefault((cls.model, fdef.name), []).append((rel, fdef))
    for (model, name), declarations in sorted(extending.items()):
        if not all(extends_only(fdef) for _, fdef in declarations):
            continue  # the module gives the values itself
        rel, fdef = declarations[0]
        values = old_selection(old_source, diff.old, model, name) if old_source is not None else None
        edited = with_selection(files.texts[rel], fdef.line, name, values) if values else None
        site = files.site_path(rel)
        if values is None or edited is None or len(declarations) > 1:
            report.find(
                RULE,
                site,
                fdef.line,
                f"Field {name} (Selection) of model {model} was removed from Odoo in {report.target_series} "
                "and the module only adds values to it (selection_add): Odoo refuses the field "
                '("without selection").',
                f"Give the field its values with selection=[...] (those of {diff.old} if the module "
                "still needs them), or stop using the field.",
                severity="error",
            )
            continue
        text, after, count = edited
        files.texts[rel] = text
        if count:
            shifts[rel].append((after, count))
        report.count(RULE)
        keys = ", ".join(key for key, _ in values)
        report.find(
            RULE,
            site,
            fdef.line,
            f"Field {name} (Selection) of model {model} was removed from Odoo in {report.target_series}; "
            f"the module extended it with selection_add and now declares it with {diff.old}'s values "
            f"({keys}) and its own: nothing of Odoo {report.target_series} reads this field any more.",
            "Check what replaced the field in the target series and whether the module still needs it.",
        )


def old_selection(source: Path, series: str, model: str, name: str) -> Selection | None:
    """The literal ``selection`` of ``model``'s field ``name`` in the core module that defines
    the model, in the Odoo source ``source``; None when it is not a literal list there (a method,
    a field another module adds)."""
    module = core_graph(series).models.get(model)
    if not module:
        return None
    for root in (source / "odoo" / "addons", source / "addons"):
        folder = root / module
        if folder.is_dir() and not folder.is_symlink():
            for path in sorted(folder.rglob("*.py")):
                found = _in_file(path, model, name)
                if found is not None:
                    return found
    return None


def _in_file(path: Path, model: str, name: str) -> Selection | None:
    tree = None if path.is_symlink() else python_tree(path, MAX_BYTES)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and model in _class_models(node):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and [t.id for t in statement.targets if isinstance(t, ast.Name)] == [name]
                    and isinstance(statement.value, ast.Call)
                ):
                    return _selection_argument(statement.value)
    return None


def _class_models(node: ast.ClassDef) -> set[str]:
    found: set[str] = set()
    for statement in node.body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in ("_name", "_inherit") for t in statement.targets
        ):
            value = _literal(statement.value)
            if isinstance(value, str):
                found.add(value)
            elif isinstance(value, list | tuple):
                found |= {v for v in value if isinstance(v, str)}
    return found


def _selection_argument(call: ast.Call) -> Selection | None:
    given = next((k.value for k in call.keywords if k.arg == "selection"), None)
    if given is None and call.args:
        given = call.args[0]
    value = _literal(given) if given is not None else None
    if not isinstance(value, list | tuple) or not value:
        return None
    pairs = [tuple(pair) for pair in value if isinstance(pair, list | tuple) and len(pair) == 2]
    if len(pairs) != len(value) or not all(isinstance(v, str) for pair in pairs for v in pair):
        return None
    return [(str(key), str(label)) for key, label in pairs]


def _literal(node: ast.expr | None) -> object:
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def extends_only(fdef: FieldDef) -> bool:
    """A Selection declaration that only adds values to one declared elsewhere."""
    return fdef.type == "Selection" and bool(fdef.selection_add) and not fdef.selection


def with_selection(text: str, line: int, name: str, values: Selection) -> tuple[str, int, int] | None:
    """``text`` with the declaration of ``name`` at ``line`` giving ``selection=`` the old
    ``values`` followed by those its ``selection_add`` added (a field defined once takes its
    ``selection`` alone: Odoo merges ``selection_add`` only into another class's field): (new text,
    the line after which lines were inserted, how many), or None when it is not a plain
    ``name = fields.Selection(..., selection_add=[(value, label), ...])`` there, or the module's
    values are not all new."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    call = next(
        (
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and n.lineno == line
            and [t.id for t in n.targets if isinstance(t, ast.Name)] == [name]
            and isinstance(n.value, ast.Call)
        ),
        None,
    )
    keyword = next((k for k in call.keywords if k.arg == "selection_add"), None) if call is not None else None
    if keyword is None or not isinstance(keyword.value, ast.List) or not keyword.value.elts:
        return None
    added = _selection_argument(ast.Call(func=keyword.value, args=[keyword.value], keywords=[]))
    if added is None or {key for key, _ in added} & {key for key, _ in values}:
        return None
    lines = text.splitlines(keepends=True)
    first = keyword.value.elts[0]
    quoted = [f"({_quote(key)}, {_quote(label)})" for key, label in values]
    listed = keyword.value
    inserted: tuple[int, int] = (0, 0)
    if listed.end_lineno == listed.lineno == keyword.lineno and listed.end_col_offset is not None:
        row = lines[listed.lineno - 1]  # [("x", "X")]: the old values before it, on its line
        start, end = _column(row, listed.col_offset), _column(row, listed.end_col_offset)
        inline = row[:start] + "[" + "".join(f"{q}, " for q in quoted) + row[start + 1 :]
        if len(inline.rstrip("\n")) <= _WIDTH:
            lines[listed.lineno - 1] = inline
        else:  # too long a line: one value a line
            indent = " " * (len(row) - len(row.lstrip(" ")) + 4)
            quoted += [f"({_quote(key)}, {_quote(label)})" for key, label in added]
            body = "".join(f"{indent}{q},\n" for q in quoted)
            lines[listed.lineno - 1] = f"{row[:start]}[\n{body}{indent[:-4]}]{row[end:]}"
            inserted = (listed.lineno, len(quoted) + 1)
    elif first.lineno != listed.lineno:  # one value a line: the old ones above, as indented
        indent = " " * first.col_offset
        lines[first.lineno - 1 : first.lineno - 1] = [f"{indent}{q},\n" for q in quoted]
        inserted = (first.lineno - 1, len(quoted))
    else:
        return None  # a list laid out otherwise: not guessed
    row = lines[keyword.lineno - 1]
    at = _column(row, keyword.col_offset)
    lines[keyword.lineno - 1] = row[:at] + "selection" + row[at + len("selection_add") :]
    return "".join(lines), *inserted


def _column(row: str, utf8_offset: int) -> int:
    """The index in ``row`` of the character at ``utf8_offset`` bytes (what ast counts)."""
    return len(row.encode("utf-8")[:utf8_offset].decode("utf-8", "replace"))


def _quote(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a Python string literal too
