"""18.0 -> 19.0: ``odoo.fields`` is a package of field classes only. Its module-level helpers of
18.0 are gone: ``fields.first`` (18.0 odoo/fields.py: ``next(iter(records)) if len(records) > 1
else records``) and the ``date``/``datetime`` it had imported from the standard library
(AttributeError when the line runs). Odoo's own 19.0 code wrote them as this rule does:
``fields.first(x)`` -> ``next(iter(x), x)`` (mail/models/mail_activity_mixin.py,
odoo/orm/fields.py traverse_related) and ``fields.date.today()`` -> ``fields.Date.today()``
(mrp/report/mrp_report_bom_structure.py; 19.0's Date.today() returns ``date.today()``).
Anything else (``fields.first`` of an expression that would run twice, ``fields.datetime.now()``:
Datetime.now() drops the microseconds) is left to removed-python-name's finding."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, dotted


class FieldsHelpers(PythonRule):
    rule = "removed-fields-helpers"
    triggers = ("fields.first", "fields.date")

    def visit_Module(self, node: cst.Module) -> None:
        # only where ``fields`` is Odoo's: ``from odoo import fields`` at the top of the file
        self._odoo_fields = any(
            isinstance(small, cst.ImportFrom)
            and dotted(small.module or cst.Name("")) == "odoo"
            and not isinstance(small.names, cst.ImportStar)
            and any(
                isinstance(alias.name, cst.Name) and alias.name.value == "fields" and alias.asname is None
                for alias in small.names
            )
            for statement in node.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
        )

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self._odoo_fields:
            return updated
        name = dotted(updated.func)
        if name == "fields.first" and len(updated.args) == 1 and _read_only(updated.args[0]):
            records = updated.args[0].value
            self.applied()
            return cst.Call(
                func=cst.Name("next"),
                args=[
                    cst.Arg(
                        cst.Call(func=cst.Name("iter"), args=[cst.Arg(records)]),
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
                    ),
                    cst.Arg(records),
                ],
            )
        if name == "fields.date.today" and not updated.args:
            self.applied()
            return updated.with_changes(func=cst.parse_expression("fields.Date.today"))
        return updated


def _read_only(arg: cst.Arg) -> bool:
    """A plain argument whose value may be read twice: a name or an attribute chain of one
    (a record's field, read again from the cache)."""
    return arg.keyword is None and not arg.star and bool(dotted(arg.value))
