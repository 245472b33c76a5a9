"""Access records as the project's Odoo series reads them.

Odoo 20.0 grants access with ``ir.access`` only (odoo/addons/base/models/ir_access.py): its
``ir.model.access`` and ``ir.rule`` models are gone, and ``ir.access`` did not exist before. A file
or record of a model the series does not have fails the install; an ``ir.access`` operation outside
its selection or a domain that is not a Python expression fails it too. The series' facts say which
models exist (``AccessFacts``).

Codes: access-model-unknown, access-operation-invalid, access-domain-invalid.
"""

from __future__ import annotations

import ast

from odoo_tools.findings import Finding
from odoo_tools.index import FileData
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.series import AccessFacts


def check_access(ctx: StaticContext) -> list[Finding]:
    if ctx.facts is None:
        return []
    access = ctx.facts.access
    found: list[Finding] = []
    for _, data in ctx.loaded_file_data():
        found += _unknown_models(ctx, access, data)
        for row in data.access:
            if row.access_model != "ir.access" or row.access_model in access.unknown_models:
                continue
            if row.operation not in access.operations:
                found.append(_bad_operation(ctx, access, data.path, row.line, row.operation))
            if row.domain and not _is_expression(row.domain):
                found.append(
                    ctx.finding(
                        "access-domain-invalid",
                        f"The domain of access {row.xml_id!r} is not a Python expression: Odoo's "
                        "_check_domain rejects the record and the install fails.",
                        "Write a domain such as [('company_id', 'in', company_ids)] (user, company_id, "
                        "company_ids and time are known), or leave it empty.",
                        data.path,
                        row.line,
                    )
                )
    return found


def _unknown_models(ctx: StaticContext, access: AccessFacts, data: FileData) -> list[Finding]:
    """One finding per file: Odoo stops at its first record of a model it does not have."""
    lines = sorted(
        [row.line for row in data.access if row.access_model in access.unknown_models]
        + [rule.line for rule in data.rules if "ir.rule" in access.unknown_models]
    )
    if not lines:
        return []
    model = _model_of(data, access)
    series = ctx.facts.series if ctx.facts else ""
    header = access.example("x.y").split("\n")[0]
    note = f"; {access.note}" if access.note else ""
    hint = f"Odoo {series} grants access with {access.model}: write {access.csv_file} ({header}{note})."
    return [
        ctx.finding(
            "access-model-unknown",
            f"Model {model!r} does not exist on Odoo {series}: loading this file fails the install.",
            hint,
            data.path,
            lines[0],
        )
    ]


def _model_of(data: FileData, access: AccessFacts) -> str:
    for row in data.access:
        if row.access_model in access.unknown_models:
            return row.access_model
    return "ir.rule"


def _bad_operation(ctx: StaticContext, access: AccessFacts, path: str, line: int, operation: str) -> Finding:
    letters = "".join(sorted(set(operation) & set("crud"), key="crud".index))
    suggestion = (
        f" (did you mean {letters!r}?)" if letters in access.operations and letters != operation else ""
    )
    return ctx.finding(
        "access-operation-invalid",
        f"Operation {operation!r} is not one of ir.access's: Odoo rejects the value and the install "
        f"fails{suggestion}.",
        "Write the letters c (create), r (read), u (update), d (delete) in that order, e.g. 'crud', 'cru', "
        "'r'; 'w' is now 'u'.",
        path,
        line,
    )


def _is_expression(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    return True
