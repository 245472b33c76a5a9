"""Core fields a step renamed, read in both series' sources: a use in the module's code is
rewritten to the new name (a removed field would otherwise be declared again by the module, a
separate field that nothing of Odoo reads). Only names distinctive enough to be that field
wherever they appear, and only when the module declares no field of that name itself."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.python_rules import PythonRule, same_quotes, string_value
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_edit import set_value
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.series import api_change, api_changes


def _renamed_field(change_id: str) -> tuple[str, str, str]:
    """(model, old name, new name) of the registry's entry, whose ``old`` says "model field" (or
    "model,model field" for a field two models had)."""
    change = api_change(change_id)
    model, old = change.old.split()
    return model, old, change.new


def renamed_field_names(series: str) -> dict[str, str]:
    """Old name -> new name of the core fields the step to ``series`` renamed (the registry's
    ``renamed-*`` entries whose ``old`` says "model field" and ``new`` a field name)."""
    renamed = {}
    for change in api_changes(series):
        parts = change.old.split()
        field_rename = change.id.startswith("renamed-") and len(parts) == 2 and change.new.isidentifier()
        if change.since == series and field_rename:
            renamed[parts[1]] = change.new
    return renamed


@dataclass(frozen=True)
class FieldRenames:
    """The core fields a step renamed that its rules rename wherever the module uses them: the
    registry's change ids (each "model field" -> new name, names distinctive enough to be that
    field wherever they appear). ``flagged`` are those whose old field also meant a state the new
    one does not (17.0's ``quantity`` is reserved too; ``picked`` says it is done): where the
    module writes a nonzero value or filters on one, ``flag`` = True goes with it."""

    ids: tuple[str, ...]
    flag: str = ""
    flagged: frozenset[str] = frozenset()

    def renamed(self) -> dict[str, tuple[str, str, str]]:
        """change id -> (model, old name, new name), as the series registry has them."""
        return {cid: _renamed_field(cid) for cid in self.ids}


_PATH = re.compile(r"^\w+(\.\w+)*$")
_NONZERO = frozenset({">", "!="})


def renamed_fields_rule(renames: FieldRenames) -> type[PythonRule]:
    """The Python rule of one step's field renames."""
    renamed = renames.renamed()

    class StepRenames(RenamedFields):
        rule = renames.ids[0]
        triggers = tuple(old for _model, old, _new in renamed.values())
        RENAMED = renamed
        RENAMES = renames

    return StepRenames


class RenamedFields(PythonRule):
    """``line.qty_done``, ``{"qty_done": 1}``, ``mapped("move_line_ids.qty_done")``... of the
    step's ``RENAMES`` (a subclass per step: ``renamed_fields_rule``)."""

    RENAMED: ClassVar[dict[str, tuple[str, str, str]]] = {}
    RENAMES = FieldRenames(ids=())

    def _renamed(self) -> dict[str, tuple[str, str]]:
        """old name -> (new name, change id), but those the module declares itself."""
        own = self.site.report.own_fields
        return {old: (new, cid) for cid, (_m, old, new) in self.RENAMED.items() if old not in own}

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self._values: set[int] = set()  # the dicts a write()/create() writes (original nodes)

    def _done_names(self) -> set[str]:
        return {old for old, (_new, cid) in self._renamed().items() if cid in self.RENAMES.flagged}

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("write", "create") and node.args:
            values = node.args[0].value
            dicts = (
                [e.value for e in values.elements] if isinstance(values, cst.List | cst.Tuple) else [values]
            )
            self._values |= {id(d) for d in dicts if isinstance(d, cst.Dict)}

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.BaseExpression:
        """``write({"qty_done": 5})`` -> ``write({"quantity": 5, "picked": True})``."""
        if id(original) not in self._values:
            return updated
        keys = [string_value(e.key) if isinstance(e, cst.DictElement) else None for e in original.elements]
        done = [
            i
            for i, (key, element) in enumerate(zip(keys, original.elements, strict=True))
            if key in self._done_names() and not _is_zero(element.value)
        ]
        if not done or self.RENAMES.flag in keys:
            return updated
        first = original.elements[done[0]]
        assert isinstance(first, cst.DictElement) and isinstance(first.key, cst.SimpleString)
        self.site.report.count(self._renamed()[str(keys[done[0]])][1])
        added = cst.DictElement(same_quotes(first.key, self.RENAMES.flag), cst.Name("True"))
        return updated.with_changes(elements=_appended(list(updated.elements), added))

    def leave_List(self, original: cst.List, updated: cst.List) -> cst.BaseExpression:
        """``[("qty_done", ">", 0)]`` -> ``[("quantity", ">", 0), ("picked", "=", True)]``, in a
        domain of leaves joined by AND only (one with "|" or "!" is left as it is)."""
        leaves = [_done_leaf(e.value, self._done_names()) for e in original.elements]
        operators = [string_value(e.value) for e in original.elements]
        if (
            not any(leaves)
            or "|" in operators
            or "!" in operators
            or any(_names(e.value, self.RENAMES.flag) for e in original.elements)
        ):
            return updated
        elements = list(updated.elements)
        at = max(i for i, leaf in enumerate(leaves) if leaf is not None)
        leaf = leaves[at]
        assert leaf is not None
        self.site.report.count(self._renamed()[str(string_value(_first_string(leaf)))][1])
        picked = leaf.with_changes(
            elements=[
                leaf.elements[0].with_changes(value=same_quotes(_first_string(leaf), self.RENAMES.flag)),
                leaf.elements[1].with_changes(value=same_quotes(_second_string(leaf), "=")),
                leaf.elements[2].with_changes(value=cst.Name("True")),
            ]
        )
        more = elements[at + 1 :]
        return updated.with_changes(
            elements=_appended(elements[: at + 1], cst.Element(picked), bool(more)) + more
        )

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        renamed = self._renamed().get(updated.attr.value)
        if renamed is None:
            return updated
        self.site.report.count(renamed[1])
        return updated.with_changes(attr=cst.Name(renamed[0]))

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        value = string_value(updated)
        if value is None or not _PATH.match(value):
            return updated
        renamed = self._renamed()
        parts = value.split(".")
        new_parts = [renamed[p][0] if p in renamed else p for p in parts]
        if new_parts == parts:
            return updated
        for part in parts:
            if part in renamed:
                self.site.report.count(renamed[part][1])
        return same_quotes(updated, ".".join(new_parts))


def _done_leaf(node: cst.BaseExpression, names: set[str]) -> cst.Tuple | cst.List | None:
    """``("qty_done", ">", 0)`` (or ``!=``): a leaf that holds when some quantity is done."""
    if not isinstance(node, cst.Tuple | cst.List) or len(node.elements) != 3:
        return None
    name, operator, value = (e.value for e in node.elements)
    if string_value(name) in names and string_value(operator) in _NONZERO and _is_zero(value):
        return node
    return None


def _names(node: cst.BaseExpression, field: str) -> bool:
    """A domain leaf on ``field``."""
    return (
        isinstance(node, cst.Tuple | cst.List)
        and bool(node.elements)
        and (string_value(node.elements[0].value) == field)
    )


def _first_string(leaf: cst.Tuple | cst.List) -> cst.SimpleString:
    value = leaf.elements[0].value
    assert isinstance(value, cst.SimpleString)
    return value


def _second_string(leaf: cst.Tuple | cst.List) -> cst.SimpleString:
    value = leaf.elements[1].value
    assert isinstance(value, cst.SimpleString)
    return value


def _is_zero(node: cst.BaseExpression) -> bool:
    return (isinstance(node, cst.Integer | cst.Float) and float(node.value) == 0) or (
        isinstance(node, cst.Name) and node.value == "False"
    )


def _appended(elements: list, added: cst.CSTNode, more: bool = False) -> list:  # type: ignore[type-arg]
    """``elements`` with ``added`` after the last, laid out as they are: the separator between
    two of them (one a line stays one a line) goes before it, and it takes the last's own
    trailing comma, if any (a separator when ``more`` elements follow)."""
    last = elements[-1]
    previous = elements[-2].comma if len(elements) > 1 else None
    if isinstance(previous, cst.Comma):
        between = previous
    elif isinstance(last.comma, cst.Comma) and (more or _breaks_line(last.comma)):
        between = last.comma
    else:
        between = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    trailing = between if more else last.comma
    return [*elements[:-1], last.with_changes(comma=between), added.with_changes(comma=trailing)]


def _breaks_line(comma: cst.Comma) -> bool:
    return isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace)


def renamed_fields_fix(renames: FieldRenames) -> Callable[[XmlDocument, Site], list[Edit]]:
    """The XML rule of one step's field renames: ``<field name="qty_done">`` in views and data
    (the names are distinctive: in 16.0 only stock.move.line had a field named qty_done, stock.move
    one named quantity_done, stock.move and stock.picking ones named move_line_nosuggest_ids, so
    every such element is one)."""
    renamed = renames.renamed()

    def fix_renamed_fields(doc: XmlDocument, site: Site) -> list[Edit]:
        own = site.report.own_fields
        names = {old: (new, cid) for cid, (_m, old, new) in renamed.items() if old not in own}
        edits: list[Edit] = []
        for element in doc.root.iter("field"):
            found = names.get(str(element.get("name") or ""))
            if found is not None:
                edits.append(set_value(doc, element, "name", found[0], found[1]))
                site.report.count(found[1])
        return edits

    return fix_renamed_fields
