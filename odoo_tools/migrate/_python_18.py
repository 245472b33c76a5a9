"""17.0 -> 18.0 in Python (checked against the 18.0 source): ``user_has_groups`` is gone
(``res.users.has_group``/``has_groups``), ``ustr`` is gone, ``group_operator`` is ``aggregator``,
``_check_recursion`` is ``not _has_cycle``, storable products are ``type='consu'`` with
``is_storable``, list views are 'list' in action dicts, ``_name_search`` is no longer called."""

from __future__ import annotations

import re

import libcst as cst

from odoo_tools.migrate._python_rules import (
    PythonRule,
    attribute_chain,
    dotted,
    is_field_call,
    same_quotes,
    string_value,
    with_values_mapped,
    without_args,
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


class ProductType(PythonRule):
    """``{'type': 'product'}`` -> ``{'type': 'consu', 'is_storable': True}``; ``detailed_type`` is
    ``type`` again; ``('type', '=', 'product')`` in a domain is ``('is_storable', '=', True)``."""

    rule = "removed-product-type-product"
    triggers = ("product",)

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.BaseExpression:
        elements: list[cst.BaseDictElement] = []
        changed = False
        keys = {string_value(e.key) for e in updated.elements if isinstance(e, cst.DictElement)}
        for element in updated.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                elements.append(element)
                continue
            key_node = element.key
            key, value = string_value(key_node), string_value(element.value)
            if key == "detailed_type" and "type" in keys:
                self.site.report.count("removed-detailed-type")
                changed = True
                continue  # 'type' says it already: detailed_type no longer exists
            if key == "detailed_type":
                element = element.with_changes(key=same_quotes(key_node, "type"))
                key, changed = "type", True
                self.site.report.count("removed-detailed-type")
            if key == "type" and value == "product" and isinstance(element.value, cst.SimpleString):
                comma = (
                    element.comma
                    if isinstance(element.comma, cst.Comma)
                    else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
                storable = cst.DictElement(
                    key=same_quotes(key_node, "is_storable"),
                    value=cst.Name("True"),
                    comma=_without_comment(element.comma),
                )
                elements.append(element.with_changes(value=same_quotes(element.value, "consu"), comma=comma))
                elements.append(storable)
                self.applied()
                changed = True
                continue
            elements.append(element)
        return updated.with_changes(elements=elements) if changed else updated

    def leave_Tuple(self, original: cst.Tuple, updated: cst.Tuple) -> cst.BaseExpression:
        items = updated.elements
        if len(items) != 3:
            return updated
        name, operator, value = (string_value(item.value) for item in items)
        if name in ("type", "detailed_type") and operator in ("=", "==", "!=") and value == "product":
            first = items[0].value
            assert isinstance(first, cst.SimpleString)
            self.applied()
            flag = "True" if operator != "!=" else "False"
            return updated.with_changes(
                elements=[
                    items[0].with_changes(value=same_quotes(first, "is_storable")),
                    items[1].with_changes(value=same_quotes(items[1].value, "="))
                    if isinstance(items[1].value, cst.SimpleString)
                    else items[1],
                    items[2].with_changes(value=cst.Name(flag)),
                ]
            )
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        left = updated.left
        if not (isinstance(left, cst.Attribute) and left.attr.value in ("type", "detailed_type")):
            return updated
        if len(updated.comparisons) != 1 or string_value(updated.comparisons[0].comparator) != "product":
            return updated
        operator = updated.comparisons[0].operator
        storable = left.with_changes(attr=cst.Name("is_storable"))
        if isinstance(operator, cst.Equal):
            self.applied()
            return storable
        if isinstance(operator, cst.NotEqual):
            self.applied()
            return cst.UnaryOperation(operator=cst.Not(), expression=storable)
        return updated


def _without_comment(comma: cst.Comma | cst.MaybeSentinel) -> cst.Comma | cst.MaybeSentinel:
    """The same comma and line break, without the comment that followed it (it stays once)."""
    if isinstance(comma, cst.Comma) and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        return comma.with_changes(
            whitespace_after=comma.whitespace_after.with_changes(first_line=cst.TrailingWhitespace())
        )
    return comma


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

    def _views(self, views: cst.List | cst.Tuple) -> cst.BaseExpression:
        elements = []
        for element in views.elements:
            pair = element.value
            if isinstance(pair, cst.Tuple) and len(pair.elements) == 2:
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


class ChartTemplateRef(PythonRule):
    """Account test classes: 18.0's ``AccountTestInvoicingCommon.setUpClass(cls)`` takes no
    ``chart_template_ref`` (a TypeError in every test of the class); the chart is the company's."""

    rule = "removed-chart-template-ref"
    triggers = ("chart_template_ref",)
    NAME = "chart_template_ref"

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if updated.name.value != "setUpClass":
            return updated
        params = list(updated.params.params)
        kept = [p for p in params if p.name.value != self.NAME]
        if len(kept) == len(params):
            return updated
        if kept and params[-1].name.value == self.NAME:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        self.applied()
        return updated.with_changes(params=updated.params.with_changes(params=kept))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "setUpClass"):
            return updated
        dropped = []
        for position, arg in enumerate(updated.args):
            passes_it = arg.keyword is not None and arg.keyword.value == self.NAME
            passes_it = passes_it or (arg.keyword is None and dotted(arg.value) == self.NAME)
            if not passes_it:
                continue
            dropped.append(position)
            if dotted(arg.value) != self.NAME:
                self.find(
                    original,
                    "setUpClass() takes no chart_template_ref in 18.0: the chart given here is dropped.",
                    "Decorate the tests with @AccountTestInvoicingCommon.setup_chart_template('<chart>') "
                    "(or setup_country) if they need that chart.",
                )
        if not dropped:
            return updated
        self.applied()
        return without_args(updated, dropped)


class AccountCompanyIds(PythonRule):
    """account.account has ``company_ids`` (many2many) instead of ``company_id`` in 18.0:
    ``env['account.account'].create({'company_id': c})`` -> ``{'company_ids': [(6, 0, [c])]}``."""

    rule = "renamed-account-company-id"
    triggers = ("account.account",)

    MODEL = "account.account"
    WRAPPERS = ("sudo", "with_context", "with_company", "with_user", "with_env")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._names: set[str] = set()  # e.g. cls.account_obj = cls.env["account.account"]

    def visit_Assign(self, node: cst.Assign) -> None:
        if self._is_model(node.value):
            self._names.update(dotted(t.target) for t in node.targets if dotted(t.target))

    def _is_model(self, node: cst.BaseExpression) -> bool:
        """``env["account.account"]``, a name it was stored in, maybe through sudo()/with_*()."""
        while (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in self.WRAPPERS
        ):
            node = node.func.value
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            return isinstance(index, cst.Index) and string_value(index.value) == self.MODEL
        return bool(dotted(node)) and dotted(node) in self._names

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "create" and updated.args):
            return updated
        if not self._is_model(func.value):
            return updated
        return with_values_mapped(updated, self._companies)

    def _companies(self, values: cst.Dict) -> cst.Dict:
        elements = []
        changed = False
        for element in values.elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            if (
                isinstance(element, cst.DictElement)
                and isinstance(key, cst.SimpleString)
                and string_value(key) == "company_id"
            ):
                ids = cst.List([cst.Element(element.value)])
                command = cst.Tuple(
                    [cst.Element(cst.Integer("6")), cst.Element(cst.Integer("0")), cst.Element(ids)]
                )
                element = element.with_changes(
                    key=same_quotes(key, "company_ids"), value=cst.List([cst.Element(command)])
                )
                changed = True
                self.applied()
            elements.append(element)
        return values.with_changes(elements=elements) if changed else values


class BusSendmany(PythonRule):
    """``bus.bus._sendmany`` is gone in 18.0 (AttributeError): each notification goes through
    ``_sendone(target, notification_type, message)``, which ``_sendmany``'s triples already match."""

    rule = "removed-bus-sendmany"
    triggers = ("_sendmany",)

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement:
        if len(updated.body) != 1 or not isinstance(updated.body[0], cst.Expr):
            return updated
        call = updated.body[0].value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
            return updated
        if call.func.attr.value != "_sendmany" or len(call.args) != 1 or call.args[0].keyword is not None:
            return updated
        self.applied()
        send = call.with_changes(
            func=call.func.with_changes(attr=cst.Name("_sendone")),
            args=[cst.Arg(cst.Name("notification"), star="*")],
        )
        return cst.For(
            target=cst.Name("notification"),
            iter=call.args[0].value,
            body=cst.IndentedBlock([updated.with_changes(body=[cst.Expr(send)], leading_lines=())]),
            leading_lines=updated.leading_lines,
        )


class FindGlobalRoute(PythonRule):
    """``stock.warehouse._find_global_route`` is ``_find_or_create_global_route`` in 18.0, whose
    ``raise_if_not_found`` defaults to False (it was True): the old default is written out."""

    rule = "renamed-find-global-route"
    triggers = ("_find_global_route",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "_find_global_route"):
            return updated
        self.applied()
        args = list(updated.args)
        named = {a.keyword.value for a in args if a.keyword is not None}
        if "raise_if_not_found" not in named and len([a for a in args if a.keyword is None]) < 4:
            last = args[-1]
            args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(
                cst.Arg(
                    cst.Name("True"),
                    keyword=cst.Name("raise_if_not_found"),
                    equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                    comma=last.comma,
                )
            )
        return updated.with_changes(
            func=func.with_changes(attr=cst.Name("_find_or_create_global_route")), args=args
        )


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
