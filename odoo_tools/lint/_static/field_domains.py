"""The ``domain=`` of a module's relational Python fields: each leaf's field path on the comodel.

Odoo validates a field's Python domain only where a view shows the field in an editable place (a
form, the node not readonly, the field not readonly: not ``readonly=True``, not computed without an
inverse, not related) without a ``domain`` of its own, and only a domain written as a string
(probed on the 18.0 lab: ``domain="[('nofield', '=', 1)]"`` on a field of the module's form fails
the install; the same domain as a list, or the field in no view, installs; on the data-refs
corpus, a readonly=True field's broken domain installed). There an unknown path is an error; else
a warning: the domain fails when the field is used. The file is read with ``ast``, never run.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding
from odoo_tools.index import RELATIONAL
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.view_expressions import domain_names
from odoo_tools.series import series_family, view_context_names
from odoo_tools.storage import read_capped

CODE = "field-domain-field-unknown"


def check_field_domains(ctx: StaticContext, in_forms: set[tuple[str, str]]) -> list[Finding]:
    """``in_forms``: the (model, field) pairs a form view of the module shows without a domain."""
    found: list[Finding] = []
    for data in ctx.files():
        classes = {(m.class_name, m.line): m.model for m in data.models}
        if data.kind != "python" or not classes:
            continue
        try:
            raw = read_capped(ctx.absolute(data.path))
            if raw is None or not _may_name_domain(raw):
                continue  # parsing every model file was half of the static checks' time
            tree = ast.parse(raw)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # the index reports a file it could not read
        for node in _classes(tree):
            if model := _model_of(node, classes):
                found += _class_domains(ctx, data.path, model, node, in_forms)
    return found


def _may_name_domain(raw: bytes) -> bool:
    """Whether the source can hold a ``domain=`` keyword: Python normalizes identifiers (NFKC),
    so a file with non-ASCII bytes may spell it otherwise and is always parsed."""
    return b"domain" in raw or not raw.isascii()


def _classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    """Every class statement, in ``ast.walk``'s order (breadth first): a class is a statement, so
    only statements, except handlers and match cases are visited (``ast.walk`` went through every
    expression node too, for nothing: no statement is ever below an expression)."""
    todo: deque[ast.AST] = deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, ast.ClassDef):
            yield node
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, _BLOCKS))


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def _model_of(node: ast.ClassDef, classes: dict[tuple[str, int], str]) -> str:
    lines = [node.lineno, *(d.lineno for d in node.decorator_list)]
    return next((classes[(node.name, line)] for line in lines if (node.name, line) in classes), "")


def _class_domains(
    ctx: StaticContext, rel: str, model: str, node: ast.ClassDef, in_forms: set[tuple[str, str]]
) -> list[Finding]:
    found: list[Finding] = []
    for statement in node.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, call = statement.targets[0], statement.value
        if not (isinstance(target, ast.Name) and isinstance(call, ast.Call)):
            continue
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in RELATIONAL):
            continue
        given = {k.arg: k.value for k in call.keywords if k.arg}
        domain = given.get("domain")
        if domain is None:
            continue
        as_text = isinstance(domain, ast.Constant) and isinstance(domain.value, str)
        if isinstance(domain, ast.Constant) and isinstance(domain.value, str):
            text = domain.value
        elif isinstance(domain, ast.List):
            text = ast.unparse(domain)
        else:
            continue  # a lambda, a method's name...: computed at run time
        comodel = ctx.resolver.comodel(model, target.id)
        read = domain_names(text, view_context_names(ctx.series))
        if comodel is None or read is None:
            continue
        checked = as_text and (model, target.id) in in_forms and _editable(given)
        for path in sorted(read.paths):
            if path.split(".")[0] in ("parent", "id"):
                continue
            broken = ctx.resolver.broken_segment(comodel, path)
            if broken is not None:
                message = (
                    f'Field "{target.id}" of {model}: its domain filters on "{path}", but "{broken[2]}" '
                )
                message += f'has no field "{broken[1]}"'
                found.append(_finding(ctx, rel, domain.lineno, message, checked))
    return found


def _editable(given: dict[str, ast.expr]) -> bool:
    """The field is editable (Odoo validates its domain only then): not readonly=True, not
    computed without an inverse, not related (readonly by default)."""
    readonly = given.get("readonly")
    if isinstance(readonly, ast.Constant) and readonly.value is True:
        return False
    if readonly is not None and not isinstance(readonly, ast.Constant):
        return False  # readonly computed at import: not ours to tell
    return "related" not in given and ("compute" not in given or "inverse" in given)


def _finding(ctx: StaticContext, rel: str, line: int, message: str, checked: bool) -> Finding:
    rule = entry(CODE)
    in_window = rule.since is None or series_family(ctx.series) in rule.series()
    if checked and in_window:
        text = f"{message}: a form of the module shows the field, so the view does not validate and the "
        text += "install fails."
        return ctx.finding(CODE, text, rule.hint, rel, line, "error")
    return ctx.finding(CODE, f"{message}: {rule.why}.", rule.hint, rel, line, "warning")
