"""16.0 -> 17.0: the ``modifiers`` view attribute is gone. 16.0 gathered a node's attrs, states,
invisible, readonly and required into one JSON ``modifiers`` attribute, the only one its client
read; 17.0's client reads ``invisible``/``readonly``/``required``/``column_invisible`` themselves,
as Python expressions, and ``odoo.addons.base.models.ir_ui_view`` lost the functions that made
``modifiers`` (``python_transfer``).

- a ``modifiers`` written as a literal (a JSON string, or ``json.dumps`` of a literal dict) as a
  dict's ``"modifiers"`` key, a ``modifiers=`` keyword or ``node.set("modifiers", ...)``, whose
  keys are only invisible/readonly/required/column_invisible with booleans or domains the attrs
  converter translates, becomes those attributes (``ModifiersAttribute``);
- any other ``"modifiers"`` (a value built at run time, a read of it) is a warning at its line:
  what the module meant is for a person to write.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from typing import TypeVar

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    dotted,
    string_value,
    with_imports_changed,
    without_aliases,
)
from odoo_tools.migrate.steps.to_17.attrs import Untranslatable, attrs_expressions
from odoo_tools.migrate.steps.to_17.xml_views import MODIFIERS
from odoo_tools.series import api_change

ATTRIBUTE = "removed-view-modifiers"
_DUMPS = ("json.dumps", "dumps")
_Element = TypeVar("_Element", cst.DictElement, cst.Arg)


class ModifiersAttribute(PythonRule):
    """A literal ``modifiers`` becomes the attributes 17.0 reads; any other ``"modifiers"`` is said."""

    rule = ATTRIBUTE
    triggers = ("modifiers",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._said: set[int] = set()  # the "modifiers" strings already rewritten or said
        self._plans: dict[int, list[tuple[str, str]]] = {}  # original node id -> attributes
        self._dumps = False  # a json.dumps(...) was rewritten: json may be read no more
        self._copies: set[int] = set()  # the elements made from a modifiers one, but its last

    def _plan(
        self, owner: cst.CSTNode, name: cst.CSTNode, value: cst.BaseExpression, taken: set[str], single: bool
    ) -> None:
        """What ``owner`` (the dict element, keyword or set() call holding ``modifiers``) becomes;
        ``taken``: the attribute names its dict or call already sets."""
        self._said.add(id(name))
        try:
            attributes = _attributes(value)
            if single and len(attributes) != 1:
                raise Untranslatable("one set() call cannot set several attributes")
            clash = sorted(taken & {attribute for attribute, _ in attributes})
            if clash:
                raise Untranslatable(f"{clash[0]} is set beside it")
        except Untranslatable as exc:
            change = api_change(ATTRIBUTE)
            self.find(name, f"{change.message} Not rewritten: {exc}.", change.hint)
            return
        self._plans[id(owner)] = attributes
        self._dumps = self._dumps or isinstance(value, cst.Call)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        """``import json`` goes when the rewritten json.dumps(...) were its last readers."""
        if not self._dumps or _reads(updated, "json"):
            return updated
        return with_imports_changed(
            updated,
            lambda statement: (
                without_aliases(statement, lambda alias: dotted(alias.name) == "json")
                if isinstance(statement, cst.Import)
                else statement
            ),
        )

    def visit_Dict(self, node: cst.Dict) -> None:
        elements = [e for e in node.elements if isinstance(e, cst.DictElement)]
        keys = {string_value(e.key) for e in elements}
        for element in elements:
            if string_value(element.key) == "modifiers":
                self._plan(element, element.key, element.value, {k for k in keys if k}, single=False)

    def leave_DictElement(
        self, original: cst.DictElement, updated: cst.DictElement
    ) -> cst.DictElement | cst.FlattenSentinel[cst.DictElement]:
        plan = self._plans.get(id(original))
        if plan is None or not isinstance(updated.key, cst.SimpleString):
            return updated
        key = updated.key
        return self._spread(
            [updated.with_changes(key=_string(key, name), value=_string(key, value)) for name, value in plan]
        )

    def _spread(self, copies: list[_Element]) -> cst.FlattenSentinel[_Element]:
        """The element of ``modifiers`` as one element per attribute; all but the last get the
        comma between the other elements when the dict or call is left (``_separated``)."""
        self.applied()
        copies[:-1] = [copy.with_changes(comma=cst.MaybeSentinel.DEFAULT) for copy in copies[:-1]]
        self._copies |= {id(copy) for copy in copies[:-1]}
        return cst.FlattenSentinel(copies)

    def _separated(self, elements: Sequence[_Element]) -> list[_Element]:
        between = [
            e.comma for e in elements[:-1] if id(e) not in self._copies and isinstance(e.comma, cst.Comma)
        ]
        comma = between[0] if between else cst.MaybeSentinel.DEFAULT
        return [e.with_changes(comma=comma) if id(e) in self._copies else e for e in elements]

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.Dict:
        elements = [e for e in updated.elements if isinstance(e, cst.DictElement)]
        if len(elements) != len(updated.elements) or not any(id(e) in self._copies for e in elements):
            return updated
        return updated.with_changes(elements=self._separated(elements))

    def visit_Call(self, node: cst.Call) -> None:
        """``modifiers=`` among a call's keywords, ``node.set("modifiers", value)``."""
        func, args = node.func, node.args
        keywords = {a.keyword.value for a in args if a.keyword is not None}
        for arg in args:
            if arg.keyword is not None and arg.keyword.value == "modifiers":
                self._plan(arg, arg.keyword, arg.value, keywords, single=False)
        is_set = isinstance(func, cst.Attribute) and func.attr.value == "set" and len(args) == 2
        if is_set and not keywords and string_value(args[0].value) == "modifiers":
            self._plan(node, args[0].value, args[1].value, set(), single=True)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg | cst.FlattenSentinel[cst.Arg]:
        plan = self._plans.get(id(original))
        if plan is None:
            return updated
        like = updated.value if isinstance(updated.value, cst.SimpleString) else cst.SimpleString('""')
        return self._spread(
            [updated.with_changes(keyword=cst.Name(name), value=_string(like, value)) for name, value in plan]
        )

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if any(id(arg) in self._copies for arg in updated.args):
            updated = updated.with_changes(args=self._separated(updated.args))
        plan = self._plans.get(id(original))
        name = updated.args[0].value if updated.args else None
        if plan is None or not isinstance(name, cst.SimpleString):
            return updated
        self.applied()
        [(attribute, value)] = plan
        first, second = updated.args
        return updated.with_changes(
            args=[
                first.with_changes(value=_string(name, attribute)),
                second.with_changes(value=_string(name, value)),
            ]
        )

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if id(node) not in self._said and string_value(node) == "modifiers":
            self.find_change(node, ATTRIBUTE)


class _Reads(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name, self.found = name, False

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.found = self.found or node.value == self.name


def _reads(module: cst.Module, name: str) -> bool:
    """Whether ``module`` names ``name`` anywhere but in its imports."""
    reads = _Reads(name)
    module.visit(reads)
    return reads.found


def _attributes(value: cst.BaseExpression) -> list[tuple[str, str]]:
    """The 17.0 attributes a literal ``modifiers`` value meant: a JSON string, or ``json.dumps``
    of a dict literal (constants only: a variable inside would be read as a field name)."""
    text = string_value(value)
    if text is not None:
        try:
            source = repr(json.loads(text))
        except ValueError as exc:
            raise Untranslatable("the value is not JSON") from exc
    elif (
        isinstance(value, cst.Call)
        and dotted(value.func) in _DUMPS
        and len(value.args) == 1
        and isinstance(value.args[0].value, cst.Dict)
    ):
        source = cst.Module([]).code_for_node(value.args[0].value)
        try:
            ast.literal_eval(source)
        except (ValueError, SyntaxError) as exc:
            raise Untranslatable("the dict is not made of constants only") from exc
    else:
        raise Untranslatable("the value is built when the code runs")
    expressions = attrs_expressions(source)
    unknown = sorted(set(expressions) - set(MODIFIERS))
    if unknown:
        raise Untranslatable(f"the key {unknown[0]!r} has no attribute of its own in 17.0")
    return list(expressions.items())


def _string(like: cst.SimpleString, value: str) -> cst.SimpleString:
    """A string literal of ``value`` quoted as ``like`` is, or with the other quote when that one
    is inside ``value``."""
    quote = '"' if like.quote.endswith('"') else "'"
    if quote in value:
        quote = "'" if quote == '"' else '"'
    escaped = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return cst.SimpleString(f"{quote}{escaped}{quote}")
