"""17.0 -> 18.0 in Python on the business models (checked against the 18.0 source): account tests'
``chart_template_ref`` and ``company_ids``, ``bus.bus._sendmany``,
``stock.warehouse._find_global_route``. Products are in ``python_products``."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    dotted,
    same_quotes,
    string_value,
    with_values_mapped,
    without_args,
)


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
