"""17.0 -> 18.0 in Python (checked against the 18.0 source): ``user_has_groups`` is gone
(``res.users.has_group``/``has_groups``), ``ustr`` is gone, ``group_operator`` is ``aggregator``,
``_check_recursion`` is ``not _has_cycle``, list views are 'list' in action dicts, ``_name_search``
is no longer called. The rules on business models (accounting, bus, stock) are in ``python_apps``,
on products in ``python_products``, on view types in ``python_view_modes``; ``RULES_18`` lists
them all in the order they run."""

from __future__ import annotations

import re

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    attribute_chain,
    dotted,
    is_field_call,
    string_value,
    without_args,
)
from odoo_tools.migrate.steps.to_18.python_apps import (
    AccountCompanyIds,
    BusSendmany,
    ChartTemplateRef,
    FindGlobalRoute,
)
from odoo_tools.migrate.steps.to_18.python_products import ProductType
from odoo_tools.migrate.steps.to_18.python_view_modes import ListViewMode


class UserHasGroups(PythonRule):
    rule = "removed-user-has-groups"
    triggers = ("user_has_groups",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "user_has_groups"):
            return updated
        spec = string_value(updated.args[0].value) if len(updated.args) == 1 else None
        method = "has_group" if spec is not None and not set(spec) & {",", "!"} else "has_groups"
        self.applied()
        return updated.with_changes(func=attribute_chain(func.value, ("env", "user", method)))


class Ustr(PythonRule):
    """``odoo.tools.ustr`` was removed in 18.0 (an ImportError at install): ``str`` does its job on
    the text it was given in Python 3."""

    rule = "removed-ustr"
    triggers = ("ustr",)
    MODULES = ("odoo.tools", "odoo.tools.misc")

    def leave_ImportFrom(
        self, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.ImportFrom | cst.RemovalSentinel:
        if (
            updated.module is None
            or dotted(updated.module) not in self.MODULES
            or isinstance(updated.names, cst.ImportStar)
        ):
            return updated
        names = list(updated.names)
        kept = [
            alias for alias in names if not (isinstance(alias.name, cst.Name) and alias.name.value == "ustr")
        ]
        if len(kept) == len(names):
            return updated
        self.applied()
        if not kept:
            return cst.RemovalSentinel.REMOVE
        kept[-1] = kept[-1].with_changes(
            comma=names[-1].comma if names[-1] in kept else cst.MaybeSentinel.DEFAULT
        )
        return updated.with_changes(names=kept)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = dotted(updated.func)
        if name in ("ustr", "tools.ustr", "misc.ustr", "odoo.tools.ustr") and len(updated.args) == 1:
            self.applied()
            return updated.with_changes(func=cst.Name("str"))
        return updated


class GroupOperator(PythonRule):
    rule = "renamed-group-operator"
    triggers = ("group_operator",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not is_field_call(updated):
            return updated
        args = []
        for arg in updated.args:
            if arg.keyword is not None and arg.keyword.value == "group_operator":
                arg = arg.with_changes(keyword=cst.Name("aggregator"))
                self.applied()
            args.append(arg)
        return updated.with_changes(args=args)


class Unaccent(PythonRule):
    """``unaccent=`` is no longer a field parameter in 18.0 (Odoo warns "unknown parameter")."""

    rule = "removed-unaccent"
    triggers = ("unaccent",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not is_field_call(updated):
            return updated
        dropped = [
            i
            for i, arg in enumerate(updated.args)
            if arg.keyword is not None and arg.keyword.value == "unaccent"
        ]
        if not dropped:
            return updated
        self.applied(len(dropped))
        return without_args(updated, dropped)


class CheckRecursion(PythonRule):
    """``_check_recursion()`` (deprecated in 18.0) is ``not _has_cycle()``."""

    rule = "deprecated-check-recursion"
    triggers = ("_check_recursion", "_check_m2m_recursion")
    OLD = ("_check_recursion", "_check_m2m_recursion")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._negated: set[int] = set()

    def _is_old(self, node: cst.BaseExpression) -> bool:
        return (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in self.OLD
        )

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not) and self._is_old(node.expression):
            self._negated.add(id(node.expression))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not self._is_old(updated):
            return updated
        assert isinstance(updated.func, cst.Attribute)
        renamed = updated.with_changes(func=updated.func.with_changes(attr=cst.Name("_has_cycle")))
        self.applied()
        if id(original) in self._negated:
            return renamed
        return cst.UnaryOperation(operator=cst.Not(), expression=renamed)

    def leave_UnaryOperation(
        self, original: cst.UnaryOperation, updated: cst.UnaryOperation
    ) -> cst.BaseExpression:
        if id(original.expression) in self._negated:
            return updated.expression  # not _check_recursion() == _has_cycle()
        return updated


class NameSearch(PythonRule):
    """18.0 never calls ``_name_search``: an override is silently dead. Only a person can port it."""

    rule = "removed-name-search"
    triggers = ("_name_search",)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.name.value == "_name_search":
            self.find_change(node)


class IrProperty(PythonRule):
    """The ir.property model was removed in 18.0 (company-dependent fields are stored as JSON)."""

    rule = "removed-ir-property"
    triggers = ("ir.property",)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if string_value(node) == "ir.property":
            self.find_change(node)


class NameGetCall(PythonRule):
    """18.0 has no ``name_get()`` at all (17.0 kept it, deprecated, as the list of
    ``(id, display_name)``): a call is rewritten to that list. ``super().name_get()`` inside an
    override is left to the override's own finding."""

    rule = "removed-name-get-call"
    triggers = ("name_get",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "name_get") or updated.args:
            return updated
        receiver = func.value
        if isinstance(receiver, cst.Call) and dotted(receiver.func) == "super":
            return updated
        self.applied()
        code = cst.Module([]).code_for_node(receiver)
        return cst.parse_expression(f"[(record.id, record.display_name) for record in {code}]")


class GroupExpandOrder(PythonRule):
    """18.0 calls a field's ``group_expand`` method with ``(records, domain)``; 17.0 passed
    ``order`` too. The method keeps its ``order`` parameter, defaulting to None (the model's order)."""

    rule = "changed-group-expand"
    triggers = ("group_expand",)
    _NAMES = re.compile(r"""group_expand\s*=\s*["'](\w+)["']""")

    def visit_Module(self, node: cst.Module) -> None:
        self._methods = set(self._NAMES.findall(node.code))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        params = list(updated.params.params)
        if updated.name.value not in self._methods or len(params) != 4 or params[3].default is not None:
            return updated
        self.applied()
        params[3] = params[3].with_changes(
            default=cst.Name("None"),
            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
        )
        return updated.with_changes(params=updated.params.with_changes(params=params))


RULES_18: tuple[type[PythonRule], ...] = (
    UserHasGroups,
    Ustr,
    GroupOperator,
    Unaccent,
    CheckRecursion,
    ProductType,
    ListViewMode,
    ChartTemplateRef,
    AccountCompanyIds,
    BusSendmany,
    FindGlobalRoute,
    NameGetCall,
    GroupExpandOrder,
    NameSearch,
    IrProperty,
)
