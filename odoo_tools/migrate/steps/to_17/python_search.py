"""16.0 -> 17.0: ``search()`` and ``_search()`` lost their ``count`` parameter (17.0's
odoo/models.py: ``search(self, domain, offset=0, limit=None, order=None)``); counting is
``search_count(domain, limit=None)``. An override still declaring ``count`` and passing it on to
``super()`` fails with "unexpected keyword argument 'count'" on every search."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, VariableNames, without_args

METHODS = ("search", "_search")


class SearchCount(VariableNames, PythonRule):
    """Overrides drop the parameter (nobody passes it any more: its branch is dead, ``count``
    reads False), calls pass it no more, and ``x.search(domain, count=True)`` is
    ``x.search_count(domain)``."""

    rule = "removed-search-count"
    triggers = ("count",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._overrides: list[bool] = []  # per enclosing function: an override with ``count``

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        names = [p.name.value for p in (*node.params.params, *node.params.kwonly_params)]
        self._overrides.append(node.name.value in METHODS and "count" in names)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not self._overrides.pop():
            return updated
        self.applied()
        self.find(
            original,
            f"{original.name.value}() has no count parameter since Odoo 17.0: it was removed from "
            "this override and its count branch now never runs.",
            "17.0's search_read and list views call search_fetch(), not search(): if this override "
            "filters what users see, override _search() instead."
            if original.name.value == "search"
            else "Remove what the count branch did: counting goes through search_count().",
        )
        params = updated.params
        return updated.with_changes(
            params=params.with_changes(
                params=_without_count(params.params), kwonly_params=_without_count(params.kwonly_params)
            )
        )

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        inside = any(self._overrides)
        if inside and updated.value == "count" and self.is_variable(original):
            return cst.Name("False")
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        method = func.attr.value if isinstance(func, cst.Attribute) else ""
        count = [
            i for i, a in enumerate(updated.args) if a.keyword is not None and a.keyword.value == "count"
        ]
        if method not in METHODS or not count:
            return updated
        value = updated.args[count[0]].value
        if isinstance(value, cst.Name) and value.value in ("False", "count"):
            self.applied()  # False, or the override's own parameter (False now): a plain search
            return without_args(updated, count)
        keywords = {a.keyword.value for a in updated.args if a.keyword is not None}
        positional = [a for a in updated.args if a.keyword is None]
        counting = method == "search" and isinstance(value, cst.Name) and value.value == "True"
        if counting and len(positional) == 1 and not keywords & {"offset"}:
            self.applied()
            dropped = [
                i for i, a in enumerate(updated.args) if a.keyword and a.keyword.value in ("count", "order")
            ]
            return without_args(updated, dropped).with_changes(
                func=func.with_changes(attr=cst.Name("search_count"))
            )
        self.find(
            original,
            f"{method}(count=...) is gone in Odoo 17.0 (TypeError: unexpected keyword argument 'count').",
            "Call search_count(domain, limit=...) to count, search(domain, ...) to find.",
            severity="error",
        )
        return updated


def _without_count(params: Sequence[cst.Param]) -> list[cst.Param]:
    """The parameters but ``count``, the last one keeping the comma the old last one had."""
    kept = [p for p in params if p.name.value != "count"]
    if kept and params and params[-1].name.value == "count":
        kept[-1] = kept[-1].with_changes(comma=params[-1].comma)
    return kept
