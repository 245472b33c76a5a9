"""Core fields a step renamed, read in both series' sources: a use in the module's code is
rewritten to the new name (a removed field would otherwise be declared again by the module, a
separate field that nothing of Odoo reads). Only names distinctive enough to be that field
wherever they appear, and only when the module declares no field of that name itself."""

from __future__ import annotations

import re

import libcst as cst

from odoo_tools.migrate._edits import Edit
from odoo_tools.migrate._python_rules import PythonRule, same_quotes, string_value
from odoo_tools.migrate._report import Site
from odoo_tools.migrate._xml_edit import set_value
from odoo_tools.migrate._xml_tags import XmlDocument
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


# change id -> (model, old name, new name), as the series registry has them
RENAMED_17 = {
    cid: _renamed_field(cid)
    for cid in ("renamed-qty-done", "renamed-quantity-done", "renamed-move-line-nosuggest-ids")
}
_PATH = re.compile(r"^\w+(\.\w+)*$")


class RenamedFields17(PythonRule):
    """``line.qty_done``, ``{"qty_done": 1}``, ``mapped("move_line_ids.qty_done")``..."""

    rule = "renamed-qty-done"
    triggers: tuple[str, ...] = tuple(old for _model, old, _new in RENAMED_17.values())
    RENAMED = RENAMED_17

    def _renamed(self) -> dict[str, tuple[str, str]]:
        """old name -> (new name, change id), but those the module declares itself."""
        own = self.site.report.own_fields
        return {old: (new, cid) for cid, (_m, old, new) in self.RENAMED.items() if old not in own}

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


def fix_renamed_fields_17(doc: XmlDocument, site: Site) -> list[Edit]:
    """``<field name="qty_done">`` in views and data: only stock.move.line had a field of that
    name in 16.0 (stock.move one named quantity_done, stock.move and stock.picking ones named
    move_line_nosuggest_ids), so every such element is one."""
    own = site.report.own_fields
    renamed = {old: (new, cid) for cid, (_m, old, new) in RENAMED_17.items() if old not in own}
    edits: list[Edit] = []
    for element in doc.root.iter("field"):
        found = renamed.get(str(element.get("name") or ""))
        if found is not None:
            edits.append(set_value(doc, element, "name", found[0], found[1]))
            site.report.count(found[1])
    return edits
