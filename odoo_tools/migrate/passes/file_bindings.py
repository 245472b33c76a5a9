"""What the names of a Python file are bound to, function by function: the values assigned to each
local name, what each function returns, the names bound some other way (parameters, loops, ``with``,
``+=``...), the values of ``self.``/``cls.`` attributes, and for each name read the functions it
sits in. A pass that follows a value through a file (``uom_category_values``) reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

_OWNERS = ("self", "cls")


@dataclass
class Function:
    node: cst.FunctionDef
    is_method: bool
    assigned: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    returned: list[cst.BaseExpression | None] = field(default_factory=list)
    bound_otherwise: set[str] = field(default_factory=set)  # params, for, with, +=, ...


class FileBindings(cst.CSTVisitor):
    def __init__(self) -> None:
        self.functions: list[Function] = []
        self.scopes: list[Function | None] = []  # None: a class body
        self.enclosing: dict[int, tuple[Function, ...]] = {}  # id(name) -> its functions, innermost last
        self.attributes: dict[str, list[cst.BaseExpression]] = {}  # self./cls. attribute -> values
        self.names: list[cst.Name] = []

    @property
    def stack(self) -> list[Function]:
        return [f for f in self.scopes if f is not None]

    @property
    def current(self) -> Function | None:
        return self.scopes[-1] if self.scopes else None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        function = Function(node, is_method=bool(self.scopes) and self.scopes[-1] is None)
        self.functions.append(function)
        self.scopes.append(function)
        function.bound_otherwise.update(p.name.value for p in parameters(node.params))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scopes.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scopes.append(None)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scopes.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            bound = target.target
            if isinstance(bound, cst.Name) and self.current and len(node.targets) == 1:
                self.current.assigned.setdefault(bound.value, []).append(node.value)
            elif owner_attribute(bound) and len(node.targets) == 1:
                assert isinstance(bound, cst.Attribute)
                self.attributes.setdefault(bound.attr.value, []).append(node.value)
            elif self.current:
                self.current.bound_otherwise.update(bound_names(bound))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bound_otherwise(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bound_otherwise(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bound_otherwise(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bound_otherwise(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bound_otherwise(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bound_otherwise(node.target)

    def visit_Return(self, node: cst.Return) -> None:
        if self.current:
            self.current.returned.append(node.value)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        if self.current:
            self.current.bound_otherwise.update(p.name.value for p in parameters(node.params))

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node)
        self.enclosing[id(node)] = tuple(self.stack)

    def _bound_otherwise(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Attribute) and owner_attribute(target):
            # the attribute as its own value: it can then never hold only category values
            self.attributes.setdefault(target.attr.value, []).append(target)
        elif self.current:
            self.current.bound_otherwise.update(bound_names(target))


def owner_attribute(node: cst.BaseExpression) -> bool:
    owner = node.value if isinstance(node, cst.Attribute) else None
    return isinstance(owner, cst.Name) and owner.value in _OWNERS


def parameters(params: cst.Parameters) -> list[cst.Param]:
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kwargs = [params.star_kwarg] if params.star_kwarg is not None else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kwargs]


def bound_names(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {n for e in target.elements for n in bound_names(e.value)}
    if isinstance(target, cst.StarredElement):
        return bound_names(target.value)
    return set()
