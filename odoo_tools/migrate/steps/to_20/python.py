"""19.0 -> 20.0 in Python, what Odoo's own upgrade_code scripts of 19.2 to 20.0 rewrite (so a
module moves without the 20.0 source at hand): ``@route(readonly=...)`` is ``replica=``,
``env.registry.clear_cache()`` is ``env.transaction.invalidate_ormcache()``, a model's
``_rec_names_search`` list is a tuple."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, dotted, string_value
from odoo_tools.migrate.engine.report import Site

_ROUTE_DECORATORS = ("route", "mail_route")  # 20.0-00-route-replica.py rewrites both


class RouteReplica(PythonRule):
    rule = "renamed-route-readonly"
    triggers = ("readonly",)

    def leave_Decorator(self, original: cst.Decorator, updated: cst.Decorator) -> cst.Decorator:
        call = updated.decorator
        if not isinstance(call, cst.Call) or dotted(call.func).rsplit(".", 1)[-1] not in _ROUTE_DECORATORS:
            return updated
        args = []
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "readonly":
                arg = arg.with_changes(keyword=cst.Name("replica"))
                self.applied()
            args.append(arg)
        return updated.with_changes(decorator=call.with_changes(args=args))


class RegistryClearCache(PythonRule):
    """``<env>.registry.clear_cache`` -> ``<env>.transaction.invalidate_ormcache`` (the cache
    name, when given, is the same argument). Another registry (``request.registry``, a bare
    ``registry``) has no ``transaction`` beside it: a finding, in the registry's words."""

    rule = "removed-registry-clear-cache"
    triggers = ("clear_cache",)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        registry = updated.value
        if updated.attr.value != "clear_cache" or not (
            isinstance(registry, cst.Attribute) and registry.attr.value == "registry"
        ):
            return updated
        owner = registry.value
        env = (isinstance(owner, cst.Name) and owner.value == "env") or (
            isinstance(owner, cst.Attribute) and owner.attr.value == "env"
        )
        if not env:
            self.find_change(original)
            return updated
        self.applied()
        return updated.with_changes(
            value=registry.with_changes(attr=cst.Name("transaction")), attr=cst.Name("invalidate_ormcache")
        )


class TupleRecNamesSearch(PythonRule):
    """``_rec_names_search = ["name", "code"]`` in a class body -> ``("name", "code")``."""

    rule = "tuple-rec-names-search"
    triggers = ("_rec_names_search",)

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self._scopes: list[str] = []  # "class"/"def" from the module down to the current node

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._scopes.append("class")

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self._scopes.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.append("def")

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self._scopes.pop()
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        value = updated.value
        if not (
            self._scopes[-1:] == ["class"]
            and len(updated.targets) == 1
            and isinstance(updated.targets[0].target, cst.Name)
            and updated.targets[0].target.value == "_rec_names_search"
            and isinstance(value, cst.List)
            and value.elements
            and all(string_value(element.value) is not None for element in value.elements)
        ):
            return updated
        elements = list(value.elements)
        if len(elements) == 1 and isinstance(elements[0].comma, cst.MaybeSentinel):
            elements[0] = elements[0].with_changes(comma=cst.Comma())
        self.applied()
        return updated.with_changes(
            value=cst.Tuple(
                elements=elements,
                lpar=[cst.LeftParen(whitespace_after=value.lbracket.whitespace_after)],
                rpar=[cst.RightParen(whitespace_before=value.rbracket.whitespace_before)],
            )
        )


RULES_20: tuple[type[PythonRule], ...] = (RouteReplica, RegistryClearCache, TupleRecNamesSearch)
