"""16.0 -> 17.0 in Python: what cannot be rewritten safely, said at its line."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate._python_rules import PythonRule, is_field_call


class NameGet(PythonRule):
    """17.0 no longer calls ``name_get`` for the display name (the same id as the static check)."""

    rule = "removed-name-get"
    triggers = ("name_get",)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.name.value == "name_get":
            self.find_change(node)


class FieldStates(PythonRule):
    """A field's ``states=`` parameter is gone in 17.0 (an "unknown parameter" warning, and the
    readonly/required it gave is lost)."""

    rule = "removed-field-states"
    triggers = ("states",)

    def visit_Call(self, node: cst.Call) -> None:
        if is_field_call(node) and any(
            a.keyword is not None and a.keyword.value == "states" for a in node.args
        ):
            self.find(
                node,
                "The field parameter states= is ignored since Odoo 17.0.",
                "Remove states= and put readonly=\"state != 'draft'\" (or required=...) on the field "
                "in its views.",
            )


RULES_17: tuple[type[PythonRule], ...] = (NameGet, FieldStates)
