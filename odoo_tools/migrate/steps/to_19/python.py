"""18.0 -> 19.0 in Python: ``_sql_constraints`` become ``models.Constraint`` class attributes
(19.0 ignores the list with a warning), and ``_cr``/``_uid``/``_context`` are read from ``env``."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    dotted,
    same_quotes,
    string_value,
    with_values_mapped,
)
from odoo_tools.migrate.steps.to_19.xml_views import GROUP_MODELS

_ENV_SHORTCUTS = {"_cr": "cr", "_uid": "uid", "_context": "context"}


class SqlConstraints(PythonRule):
    rule = "replaced-sql-constraints"
    triggers = ("_sql_constraints",)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body: list[cst.BaseStatement] = []
        changed = False
        for statement in updated.body.body:
            replacement = self._constraints(statement)
            if replacement is None:
                body.append(statement)
            else:
                body += replacement
                changed = True
        return updated.with_changes(body=updated.body.with_changes(body=body)) if changed else updated

    def _constraints(self, statement: cst.BaseStatement) -> list[cst.BaseStatement] | None:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return None
        assign = statement.body[0]
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
            return None
        target = assign.targets[0].target
        if not (isinstance(target, cst.Name) and target.value == "_sql_constraints"):
            return None
        if not isinstance(assign.value, (cst.List, cst.Tuple)):
            self.find(
                statement,
                "_sql_constraints is not a literal list: it is ignored by 19.0.",
                "Declare each as  _name = models.Constraint('definition', 'message').",
            )
            return None
        lines: list[cst.BaseStatement] = []
        for element in assign.value.elements:
            triple = element.value
            if not (isinstance(triple, cst.Tuple) and len(triple.elements) == 3):
                self.find(
                    statement,
                    "An _sql_constraints entry is not (name, definition, message).",
                    "Declare it as  _name = models.Constraint('definition', 'message').",
                )
                return None
            name = string_value(triple.elements[0].value)
            if name is None or not name.isidentifier():
                self.find(
                    statement,
                    "An _sql_constraints name is not a literal identifier.",
                    "Declare it as  _name = models.Constraint('definition', 'message').",
                )
                return None
            definition, message = triple.elements[1].value, _untranslated(triple.elements[2].value)
            call = cst.Call(
                func=cst.Attribute(value=cst.Name("models"), attr=cst.Name("Constraint")),
                args=[
                    cst.Arg(definition, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                    cst.Arg(message),
                ],
            )
            line = cst.SimpleStatementLine(
                body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(f"_{name}"))], value=call)],
                leading_lines=statement.leading_lines if not lines else (),
            )
            lines.append(line)
            self.applied()
        return lines


def _untranslated(node: cst.BaseExpression) -> cst.BaseExpression:
    """``_('text')`` -> ``'text'``: 19.0 translates Constraint messages itself."""
    translated = (
        isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("_", "_lt")
    )
    if translated and len(node.args) == 1 and isinstance(node.args[0].value, cst.SimpleString):  # type: ignore[attr-defined]
        return node.args[0].value  # type: ignore[attr-defined]
    return node


class EnvShortcuts(PythonRule):
    """``record._cr`` -> ``record.env.cr`` (and ``_uid``, ``_context``): deprecated in 19.0."""

    rule = "deprecated-env-shortcuts"
    triggers = ("_cr", "_uid", "_context")

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        new = _ENV_SHORTCUTS.get(updated.attr.value)
        if new is None or (isinstance(updated.value, cst.Attribute) and updated.value.attr.value == "env"):
            return updated
        self.applied()
        return cst.Attribute(
            value=cst.Attribute(value=updated.value, attr=cst.Name("env")), attr=cst.Name(new)
        )


class GroupsId(PythonRule):
    """``groups_id`` is ``group_ids`` in 19.0 on res.users (and menus, views, actions): in values
    given to create()/write() of a user, and read on a user (``user.groups_id``, ``env.user``)."""

    rule = "renamed-groups-id"
    triggers: tuple[str, ...] = ("groups_id",)

    def _about_users(self, node: cst.BaseExpression) -> bool:
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            node = node.func.value  # sudo(), with_context(), browse()...
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            return isinstance(index, cst.Index) and string_value(index.value) in GROUP_MODELS
        last = dotted(node).rsplit(".", 1)[-1].lower()
        return "user" in last

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value == "groups_id" and self._about_users(updated.value):
            self.applied()
            return updated.with_changes(attr=cst.Name("group_ids"))
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("create", "write") and updated.args):
            return updated
        if not self._about_users(func.value):
            return updated
        return with_values_mapped(updated, self._renamed)

    def _renamed(self, values: cst.Dict) -> cst.Dict:
        elements = []
        for element in values.elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            if (
                isinstance(element, cst.DictElement)
                and isinstance(key, cst.SimpleString)
                and string_value(key) == "groups_id"
            ):
                element = element.with_changes(key=same_quotes(key, "group_ids"))
                self.applied()
            elements.append(element)
        return values.with_changes(elements=elements)
