"""16.0 -> 17.0: ``odoo.addons.base.models.ir_ui_view`` lost the functions that made the
``modifiers`` view attribute (the series registry lists them). ``modifiers = {};
transfer_node_to_modifiers(node, modifiers); transfer_modifiers_to_node(modifiers, node)`` only
moved the node's own attrs/states/invisible/readonly/required into one JSON ``modifiers``, the
only one 16.0's client read: on 17.0 the node's own attributes are what the client reads, so the
calls go, with the dict nothing else reads and the imported names nothing uses any more. Any other
use of the functions (a dict read afterwards, a call outside a function) is an error at its line:
the import stays and fails. An import inside a ``try`` whose ``except`` catches its ImportError is
the module's own fallback: on 17.0 that runs, so nothing is said or changed for its names."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from odoo_tools.lint import CATCHING_IMPORT_ERROR
from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    dotted,
    with_imports_changed,
    without_aliases,
    without_statements,
)
from odoo_tools.series import api_change

ATTRIBUTE = "removed-view-modifiers"
NODE_TO_MODIFIERS, MODIFIERS_TO_NODE = (
    "removed-transfer-node-to-modifiers",
    "removed-transfer-modifiers-to-node",
)
# the dict's position among the arguments of each function of the round trip
_DICT_ARGUMENT = {NODE_TO_MODIFIERS: 1, MODIFIERS_TO_NODE: 0}
_CHANGES = (
    NODE_TO_MODIFIERS,
    MODIFIERS_TO_NODE,
    "removed-transfer-field-to-modifiers",
    "removed-simplify-modifiers",
)
# "odoo.addons.base.models.ir_ui_view.transfer_node_to_modifiers" -> its change id
_FUNCTIONS = {api_change(change).old: change for change in _CHANGES}
_NAMES = {old.rsplit(".", 1)[1]: change for old, change in _FUNCTIONS.items()}
_LXML_QUERIES = ("xpath", "iter", "findall", "iterchildren", "iterdescendants", "getchildren")


@dataclass
class _Scope:
    """What one function (with the functions inside it) does with the imported functions."""

    calls: list[tuple[cst.SimpleStatementLine, str, str, str]] = field(default_factory=list)
    fresh: dict[str, list[cst.SimpleStatementLine]] = field(default_factory=dict)  # name = {}
    names: Counter[str] = field(default_factory=Counter)  # every variable name read or written


class _Uses(cst.CSTVisitor):
    """The imported functions' local names, their uses, and per outermost function the round-trip
    call statements (statement, change id, dict name, node code), the ``name = {}`` statements and
    the variable names."""

    def __init__(self) -> None:
        super().__init__()
        self.imported: dict[str, str] = {}  # local name -> change id
        self.uses: list[cst.Name] = []
        self.attributes: list[cst.Attribute] = []  # ir_ui_view.transfer_...: not rewritten
        self.scopes: list[_Scope] = []
        self._depth = 0
        self._not_variables: set[int] = set()
        self._guarded: set[int] = set()  # imports whose ImportError a try catches

    def visit_Try(self, node: cst.Try) -> None:
        if any(_catches_import_error(handler) for handler in node.handlers):
            node.body.visit(_TriedImports(self._guarded))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return False
        if id(node) in self._guarded:
            return False
        for alias in node.names:
            change = _FUNCTIONS.get(f"{dotted(node.module)}.{dotted(alias.name)}")
            if change is not None:
                self.imported[alias.evaluated_alias or dotted(alias.name)] = change
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._depth += 1
        if self._depth == 1:
            self.scopes.append(_Scope())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._depth -= 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if not self._depth or len(node.body) != 1:
            return
        statement, scope = node.body[0], self.scopes[-1]
        if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
            call = statement.value
            change = self.imported.get(dotted(call.func))
            if change in _DICT_ARGUMENT and len(call.args) == 2 and not any(a.keyword for a in call.args):
                dict_arg = call.args[_DICT_ARGUMENT[change]].value
                node_arg = call.args[1 - _DICT_ARGUMENT[change]].value
                if isinstance(dict_arg, cst.Name):
                    code = cst.Module([]).code_for_node(node_arg)
                    scope.calls.append((node, change, dict_arg.value, code))
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0].target, statement.value
            if isinstance(target, cst.Name) and isinstance(value, cst.Dict) and not value.elements:
                scope.fresh.setdefault(target.value, []).append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_variables.add(id(node.attr))
        if node.attr.value in _NAMES:
            self.attributes.append(node)

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_variables.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) in self._not_variables:
            return
        if node.value in self.imported:
            self.uses.append(node)
        if self._depth:
            self.scopes[-1].names[node.value] += 1


class _TriedImports(cst.CSTVisitor):
    """The imports a try body runs (not those of a function it only defines)."""

    def __init__(self, found: set[int]) -> None:
        super().__init__()
        self.found = found

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        self.found.add(id(node))
        return False


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True  # a bare except
    caught = handler.type
    types = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
    return any(isinstance(t, cst.Name) and t.value in CATCHING_IMPORT_ERROR for t in types)


def _removable(scope: _Scope) -> list[list[cst.SimpleStatementLine]]:
    """The round trips (their statements) that only moved a node's attributes through a fresh
    dict nothing else reads: its ``name = {}`` lines and its calls, all on the same node, with
    the write back among them."""
    trips: list[list[cst.SimpleStatementLine]] = []
    for name in sorted({dict_name for _, _, dict_name, _ in scope.calls}):
        calls = [
            (statement, change, node)
            for statement, change, dict_name, node in scope.calls
            if dict_name == name
        ]
        fresh = scope.fresh.get(name, [])
        only_these = scope.names[name] == len(fresh) + len(calls)
        one_node = len({node for _, _, node in calls}) == 1
        writes_back = any(change == MODIFIERS_TO_NODE for _, change, _ in calls)
        if fresh and only_these and one_node and writes_back:
            trips.append([*fresh, *(statement for statement, _, _ in calls)])
    return trips


class RoundTrip(PythonRule):
    """The round trip through the removed functions goes; any other use of them is said."""

    rule = ATTRIBUTE
    triggers = ("_modifiers",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._removed: set[int] = set()  # ids of the original statements to remove
        self._dropped: set[str] = set()  # imported names no statement left uses
        self._gone: dict[int, cst.BaseStatement] = {}  # the same statements, by id in the new tree

    def visit_Module(self, node: cst.Module) -> None:
        uses = _Uses()
        node.visit(uses)
        trips = [trip for scope in uses.scopes for trip in _removable(scope)]
        self._removed = {id(statement) for trip in trips for statement in trip}
        removed_calls = {
            id(statement.body[0].value.func)  # type: ignore[attr-defined]
            for scope in uses.scopes
            for statement, _, _, _ in scope.calls
            if id(statement) in self._removed
        }
        kept = [name for name in uses.uses if id(name) not in removed_calls]
        self._dropped = set(uses.imported) - {name.value for name in kept}
        for name in kept:
            self.find_change(name, uses.imported[name.value])
        for attribute in uses.attributes:  # ir_ui_view.transfer_...(): a person reads it
            self.find_change(attribute, _NAMES[attribute.attr.value])
        if self._dropped or trips:
            self.applied(len(trips) or 1)

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if id(original) in self._removed:
            self._gone[id(updated)] = updated
        return updated

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        """A loop over a tree's nodes that only did the round trip goes with it: lxml's queries
        (``tree.xpath("./*")``) change nothing, so nothing is left for the loop to do."""
        body = original.body.body if isinstance(original.body, cst.IndentedBlock) else ()
        query = original.iter
        if (
            body
            and all(id(statement) in self._removed for statement in body)
            and not original.orelse
            and isinstance(query, cst.Call)
            and isinstance(query.func, cst.Attribute)
            and query.func.attr.value in _LXML_QUERIES
        ):
            self._gone[id(updated)] = updated
        return updated

    def leave_IndentedBlock(
        self, original: cst.IndentedBlock, updated: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return without_statements(updated, self._gone)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return with_imports_changed(updated, self._without_dropped) if self._dropped else updated

    def _without_dropped(self, statement: cst.Import | cst.ImportFrom) -> cst.Import | cst.ImportFrom | None:
        if not isinstance(statement, cst.ImportFrom) or statement.module is None or statement.relative:
            return statement
        module = dotted(statement.module)
        return without_aliases(
            statement,
            lambda alias: (
                f"{module}.{dotted(alias.name)}" in _FUNCTIONS
                and (alias.evaluated_alias or dotted(alias.name)) in self._dropped
            ),
        )
