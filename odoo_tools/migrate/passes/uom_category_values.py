"""Gone unit categories carried through a file by names, attributes and methods: a value read
with ``env.ref("uom.<category>")`` kept in a local name, a ``self.``/``cls.`` attribute or
returned by a method of the file, then compared in a domain leaf ``(path.category_id, '=',
value.id)``. On the target the category's units are those under its root unit (see
``uom_categories``), so the value can be that root unit instead, and the leaf ``(path or 'id',
'child_of', value.id)``, when every use the file makes of the value is one of those: kept in
another such name, returned, tested for truth, or its ``.id`` compared in such a leaf. One other
use anywhere in the file (a field read, a create value, a name other files of the module know)
and nothing is carried: the references stay findings.

A value read from the gone ``uom.category`` model itself (``env["uom.category"].search(...)``)
may join such a value: it fails on the target whatever happens, so what reaches a leaf there is
always a root unit; its line stays a finding of the removed model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import libcst as cst

from odoo_tools.migrate.engine.python_rules import string_value
from odoo_tools.migrate.passes.file_bindings import FileBindings, Function, owner_attribute

_GONE_MODEL = "uom.category"


@dataclass
class CarriedCategories:
    """What the file's carried category values become: the ref strings to turn into their root
    unit (node id -> ``uom.<root>``) and the leaves whose value is one of them (id of the
    ``value.id`` node)."""

    refs: dict[int, str] = field(default_factory=dict)
    leaves: set[int] = field(default_factory=set)


def carried_categories(
    module: cst.Module,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    roots: Mapping[str, str],
    elsewhere: str,
) -> CarriedCategories:
    """``module`` is the tree the rewrite walks (``parents`` its ParentNodeProvider), ``roots``
    a gone category's root unit, ``elsewhere`` the text of the module's other files."""
    collect = FileBindings()
    module.visit(collect)
    carry = _Carry(collect, parents, roots)
    carry.settle()
    if not carry.refs or not carry.uses_understood(elsewhere):
        return CarriedCategories()
    return CarriedCategories(carry.refs, carry.leaves)


class _Carry:
    def __init__(
        self, collect: FileBindings, parents: Mapping[cst.CSTNode, cst.CSTNode], roots: Mapping[str, str]
    ) -> None:
        self.collect, self.parents, self.roots = collect, parents, roots
        self.locals: set[tuple[int, str]] = set()  # (id(function node), name)
        self.attributes: set[str] = set()
        self.methods: set[str] = set()
        self.refs: dict[int, str] = {}
        self.leaves: set[int] = set()

    def settle(self) -> None:
        """The names, attributes and methods that hold only category values (least fixed point;
        a method name counts when every method of the file with that name returns only them)."""
        changed = True
        while changed:
            changed = False
            for function in self.collect.functions:
                for name, values in function.assigned.items():
                    key = (id(function.node), name)
                    if key in self.locals or name in function.bound_otherwise:
                        continue
                    if all(self._source(v, function) for v in values):
                        self.locals.add(key)
                        changed = True
            for attribute, values in self.collect.attributes.items():
                if attribute not in self.attributes and all(self._source(v, None) for v in values):
                    self.attributes.add(attribute)
                    changed = True
            named: dict[str, list[Function]] = {}
            for function in self.collect.functions:
                named.setdefault(function.node.name.value, []).append(function)
            for method, functions in named.items():
                if method not in self.methods and all(self._returns_sources(f) for f in functions):
                    self.methods.add(method)
                    changed = True
        for function in self.collect.functions:
            held = [k for k in function.assigned if (id(function.node), k) in self.locals]
            values = [v for k in held for v in function.assigned[k]]
            if function.node.name.value in self.methods:
                values += [v for v in function.returned if v is not None]
            self._take_refs(values)
        self._take_refs([v for a in self.attributes for v in self.collect.attributes[a]])

    def _returns_sources(self, function: Function) -> bool:
        returned = function.returned
        return (
            function.is_method
            and bool(returned)
            and all(v is not None and self._source(v, function) for v in returned)
        )

    def _take_refs(self, values: list[cst.BaseExpression]) -> None:
        for value in values:
            category = _ref_category(value)
            if category in self.roots:
                assert isinstance(value, cst.Call) and category is not None
                self.refs[id(value.args[0].value)] = self.roots[category]

    def _source(self, node: cst.BaseExpression, function: Function | None) -> bool:
        if _ref_category(node) in self.roots or _reads_gone_model(node):
            return True
        return self._carried(node, (function,) if function else ())

    def _carried(self, node: cst.BaseExpression, functions: tuple[Function, ...]) -> bool:
        if isinstance(node, cst.Name):
            return self._local(node.value, functions)
        if isinstance(node, cst.Attribute) and owner_attribute(node):
            return node.attr.value in self.attributes
        if isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute):
            return owner_attribute(node.func) and node.func.attr.value in self.methods
        return False

    def _local(self, name: str, functions: tuple[Function, ...]) -> bool:
        return any((id(f.node), name) in self.locals for f in functions)

    def uses_understood(self, elsewhere: str) -> bool:
        """Every read of a carried name, attribute or method is one the rewrite knows, and the
        module's other files name none of the methods and read none of the attributes."""
        members = self.attributes | self.methods
        if any(re.search(rf"\b{m}\b", elsewhere) for m in self.methods) or any(
            re.search(rf"\.{a}\b|[\"']{a}[\"']", elsewhere) for a in self.attributes
        ):
            return False
        for name in self.collect.names:
            parent = self.parents.get(name)
            functions = self.collect.enclosing.get(id(name), ())
            if isinstance(parent, cst.Attribute) and parent.attr is name:
                if name.value not in members:
                    continue
                if not owner_attribute(parent):
                    return False  # the same name read on another object: not followed
                outer = self.parents.get(parent)
                call = isinstance(outer, cst.Call) and outer.func is parent
                if name.value in self.methods and not call:
                    return False
                node = outer if call else parent
                assert isinstance(node, cst.BaseExpression)
                if not self._use_understood(node, functions):
                    return False
            elif self._local(name.value, functions):
                if not self._use_understood(name, functions):
                    return False
            elif name.value in members and not (isinstance(parent, cst.FunctionDef) and parent.name is name):
                return False
        return True

    def _use_understood(self, node: cst.BaseExpression, functions: tuple[Function, ...]) -> bool:
        parent = self.parents.get(node)
        if isinstance(parent, cst.AssignTarget):
            return True  # the name being bound: its values are what settle() checked
        if isinstance(parent, cst.Assign):
            return all(self._carried(t.target, functions) for t in parent.targets)
        if isinstance(parent, cst.Return):
            return bool(functions) and functions[-1].node.name.value in self.methods
        if isinstance(parent, cst.If) and parent.test is node:
            return True
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return True
        if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "id":
            element = self.parents.get(parent)
            leaf = self.parents.get(element) if element is not None else None
            if isinstance(leaf, (cst.Tuple, cst.List)) and _category_leaf(leaf, parent):
                self.leaves.add(id(parent))
                return True
        return False


def _category_leaf(leaf: cst.Tuple | cst.List, value: cst.BaseExpression) -> bool:
    if len(leaf.elements) != 3 or leaf.elements[2].value is not value:
        return False
    path, operator = string_value(leaf.elements[0].value), string_value(leaf.elements[1].value)
    return (
        isinstance(leaf.elements[0].value, cst.SimpleString)
        and path is not None
        and (path == "category_id" or path.endswith(".category_id"))
        and operator == "="
    )


def _ref_category(node: cst.BaseExpression) -> str | None:
    """``"uom.X"`` of ``<...>.ref("uom.X"[, raise_if_not_found=...])``."""
    func = node.func if isinstance(node, cst.Call) else None
    if not (isinstance(node, cst.Call) and isinstance(func, cst.Attribute) and func.attr.value == "ref"):
        return None
    if not node.args or node.args[0].keyword or not isinstance(node.args[0].value, cst.SimpleString):
        return None
    if any(a.keyword is None or a.keyword.value != "raise_if_not_found" for a in node.args[1:]):
        return None
    return string_value(node.args[0].value)


def _reads_gone_model(node: cst.BaseExpression) -> bool:
    """``<...>["uom.category"]``, maybe followed by attributes and calls (``.search(...)``)."""
    while True:
        if isinstance(node, cst.Call):
            node = node.func
        elif isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Subscript):
            return len(node.slice) == 1 and string_value(_index(node.slice[0])) == _GONE_MODEL
        else:
            return False


def _index(element: cst.SubscriptElement) -> cst.BaseExpression:
    return element.slice.value if isinstance(element.slice, cst.Index) else cst.Name("_")
