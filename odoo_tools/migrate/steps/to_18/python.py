"""17.0 -> 18.0 in Python (checked against the 18.0 source): ``user_has_groups`` is gone
(``res.users.has_group``/``has_groups``), ``ustr`` is gone, ``group_operator`` is ``aggregator``,
``_check_recursion`` is ``not _has_cycle``, list views are 'list' in action dicts, ``_name_search``
is no longer called. The rules on business models (products, accounting, bus, stock) are in
``python_apps``; ``RULES_18`` lists both in the order they run."""

from __future__ import annotations

import re

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    attribute_chain,
    dotted,
    is_field_call,
    same_quotes,
    string_value,
    without_args,
)
from odoo_tools.migrate.steps.to_18.python_apps import (
    AccountCompanyIds,
    BusSendmany,
    ChartTemplateRef,
    FindGlobalRoute,
    ProductType,
)


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


def _names_a_view_type(node: cst.BaseExpression) -> bool:
    """``view_type``, ``sub_view_type``, ``self.view_mode``, ``view.type``: a name that holds a
    view type or mode."""
    if isinstance(node, cst.Name):
        return node.value.endswith(("view_type", "view_mode"))
    if isinstance(node, cst.Attribute):
        owner = node.value
        owner_name = owner.value if isinstance(owner, cst.Name) else ""
        return node.attr.value.endswith(("view_type", "view_mode")) or (
            node.attr.value == "type" and owner_name.endswith("view")
        )
    return False


class ListViewMode(PythonRule):
    """Action dicts: ``'view_mode': 'tree,form'``, ``'views': [(False, 'tree')]`` and the
    ``tree_view_ref`` context key say 'list' in 18.0."""

    rule = "removed-view-mode-tree"
    triggers = ("tree",)

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        key = string_value(updated.key)
        if key == "tree_view_ref" and isinstance(updated.key, cst.SimpleString):
            self.applied()
            return updated.with_changes(key=same_quotes(updated.key, "list_view_ref"))
        if key == "view_mode" and isinstance(updated.value, cst.SimpleString):
            value = string_value(updated.value) or ""
            modes = [m.strip() for m in value.split(",")]
            if "tree" in modes:
                self.applied()
                new = ",".join("list" if m == "tree" else m for m in modes)
                return updated.with_changes(value=same_quotes(updated.value, new))
        if key == "views" and isinstance(updated.value, (cst.List, cst.Tuple)):
            return updated.with_changes(value=self._views(updated.value))
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        """``view_type == "tree"``, ``view_type in ["tree", "form"]``: a view type read in code
        (get_view's view_type, a view's ``type``) says 'list' in 18.0."""
        if not _names_a_view_type(updated.left):
            return updated
        targets = []
        for target in updated.comparisons:
            comparator = target.comparator
            if isinstance(comparator, cst.SimpleString) and string_value(comparator) == "tree":
                self.applied()
                target = target.with_changes(comparator=same_quotes(comparator, "list"))
            elif isinstance(comparator, cst.List | cst.Tuple | cst.Set):
                target = target.with_changes(comparator=self._modes(comparator))
            targets.append(target)
        return updated.with_changes(comparisons=targets)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        """``for sub_view_type in ["tree", "form"]:``."""
        if _names_a_view_type(updated.target) and isinstance(updated.iter, cst.List | cst.Tuple | cst.Set):
            return updated.with_changes(iter=self._modes(updated.iter))
        return updated

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        """``get_view(view_type="tree")``, ``Form(record, view_mode="tree")``-like keywords."""
        keyword = updated.keyword.value if updated.keyword is not None else ""
        value = updated.value
        if keyword in ("view_type", "view_mode") and isinstance(value, cst.SimpleString):
            modes = [m.strip() for m in (string_value(value) or "").split(",")]
            if "tree" in modes:
                self.applied()
                new = ",".join("list" if m == "tree" else m for m in modes)
                return updated.with_changes(value=same_quotes(value, new))
        return updated

    def leave_Tuple(self, original: cst.Tuple, updated: cst.Tuple) -> cst.BaseExpression:
        return self._pair(updated)

    def leave_List(self, original: cst.List, updated: cst.List) -> cst.BaseExpression:
        return self._pair(updated)

    def _pair(self, pair: cst.Tuple | cst.List) -> cst.BaseExpression:
        """``(False, "tree")``, ``[view.id, "tree"]``: a (view id, view type) pair, as get_views()
        and an action's ``views`` take them."""
        if len(pair.elements) != 2:
            return pair
        first, mode = (e.value for e in pair.elements)
        view_id = (
            (isinstance(first, cst.Name) and first.value in ("False", "None"))
            or isinstance(first, cst.Integer)
            or (isinstance(first, cst.Attribute) and first.attr.value == "id")
        )
        if not view_id or not isinstance(mode, cst.SimpleString) or string_value(mode) != "tree":
            return pair
        self.applied()
        return pair.with_changes(
            elements=[pair.elements[0], pair.elements[1].with_changes(value=same_quotes(mode, "list"))]
        )

    def _modes(self, modes: cst.List | cst.Tuple | cst.Set) -> cst.BaseExpression:
        elements = []
        for element in modes.elements:
            mode = element.value
            if isinstance(mode, cst.SimpleString) and string_value(mode) == "tree":
                self.applied()
                element = element.with_changes(value=same_quotes(mode, "list"))
            elements.append(element)
        return modes.with_changes(elements=elements)

    def _views(self, views: cst.List | cst.Tuple) -> cst.BaseExpression:
        elements = []
        for element in views.elements:
            pair = element.value
            if isinstance(pair, cst.Tuple | cst.List) and len(pair.elements) == 2:
                mode = pair.elements[1].value
                if isinstance(mode, cst.SimpleString) and string_value(mode) == "tree":
                    self.applied()
                    pair = pair.with_changes(
                        elements=[
                            pair.elements[0],
                            pair.elements[1].with_changes(value=same_quotes(mode, "list")),
                        ]
                    )
                    element = element.with_changes(value=pair)
            elements.append(element)
        return views.with_changes(elements=elements)


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
