"""16.0 -> 17.0: ``onchange(values, field_names, fields_spec)`` takes the fields specification of
17.0's ``_get_fields_spec()`` (``{"line_ids": {"fields": {...}}}``), where 16.0's
``onchange(values, field_name, field_onchange)`` took the flat ``_onchange_spec()``
(``{"line_ids.product_id": "1"}``): 17.0 refuses those dotted names ("Invalid field
'resume_line_ids.line_type_id' on model 'hr.employee'"). ``_onchange_spec()`` itself is still
there, so only what an ``onchange()`` call is given changes: ``_get_fields_spec()`` with the same
arguments, on the records the onchange runs on when the spec was read earlier into a name."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule
from odoo_tools.migrate.engine.report import Site

OLD, NEW = "_onchange_spec", "_get_fields_spec"


class OnchangeSpec(PythonRule):
    rule = "changed-onchange-spec"
    triggers = (OLD,)

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        # per function: name -> the _onchange_spec() calls bound to it (None: bound another way)
        self._specs: list[dict[str, list[cst.Call | None]]] = [{}]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        bindings = _Bindings()
        node.body.visit(bindings)  # every binding of the function, before or after the call
        for param in (*node.params.params, *node.params.kwonly_params):
            bindings.found[param.name.value] = [None]
        self._specs.append(bindings.found)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self._specs.pop()
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "onchange" and len(updated.args) == 3):
            return updated
        spec = updated.args[2]
        if (spec.keyword is not None and spec.keyword.value != "field_onchange") or spec.star:
            return updated
        value = spec.value
        if _is_spec_call(value):
            assert isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            new_value: cst.BaseExpression = value.with_changes(
                func=value.func.with_changes(attr=cst.Name(NEW))
            )
        elif isinstance(value, cst.Name) and self._bound_spec(value.value) is not None:
            bound = self._bound_spec(value.value)
            assert bound is not None
            new_value = cst.Call(func=cst.Attribute(value=func.value, attr=cst.Name(NEW)), args=bound.args)
        else:
            return updated
        self.applied()
        self.find(
            original,
            "onchange() takes the fields specification of _get_fields_spec() in 17.0 (nested, one "
            "entry per field), not 16.0's _onchange_spec() (flat, dotted names): it is given that now.",
            "Check what the code reads from the spec and from the onchange result.",
        )
        keyword = None if spec.keyword is None else cst.Name("fields_spec")
        names = updated.args[1]  # 16.0's field_name is 17.0's field_names
        if names.keyword is not None and names.keyword.value == "field_name":
            names = names.with_changes(keyword=cst.Name("field_names"))
        spec = spec.with_changes(value=new_value, keyword=keyword)
        return updated.with_changes(args=[updated.args[0], names, spec])

    def _bound_spec(self, name: str) -> cst.Call | None:
        """The one _onchange_spec() call ``name`` is bound to in this function, if that is its
        only binding."""
        bindings = self._specs[-1].get(name, [])
        return bindings[0] if len(bindings) == 1 else None


def _is_spec_call(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == OLD


class _Bindings(cst.CSTVisitor):
    """name -> what each assignment of a function binds it to: the _onchange_spec() call, or None
    for anything else (another value, ``+=``, a loop, ``with ... as``)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[cst.Call | None]] = {}

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            spec = value if isinstance(value, cst.Call) and _is_spec_call(value) else None
            self.found.setdefault(target.value, []).append(spec)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, None)
