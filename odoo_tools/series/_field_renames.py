"""Core fields a step renamed, told by the two series' packs alone: on a model both series have,
a relational field the new series no longer has whose plural the new series added, a many2many to
the same comodel (18.0's ``account.account.company_ids`` for 17.0's ``company_id``, 19.0's
``ir.filters.user_ids`` for ``user_id``); and a stored boolean that went while the model gained
``active`` (19.0's ``account.account.deprecated``: an account is archived instead), which says
the opposite of the field it replaces.

A domain leaf on the old field reads the same on the new one: on a many2many, ``=`` and ``in``
match the records whose set holds the value (Odoo's domain semantics for x2many)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from odoo_tools.series._pack import PackModel
from odoo_tools.series._pack_diff import pack_diff, pack_ref


@dataclass(frozen=True, slots=True)
class FieldRename:
    model: str
    old: str
    new: str
    inverted: bool = False  # the new field holds when the old one did not (deprecated -> active)


@functools.cache
def field_renames(old: str, new: str) -> dict[tuple[str, str], FieldRename]:
    """(model, old field) -> its rename on the step ``old`` -> ``new``; empty without both packs."""
    diff = pack_diff(old, new)
    before, after = pack_ref(old), pack_ref(new)
    if diff is None or before is None or after is None:
        return {}
    renames: dict[tuple[str, str], FieldRename] = {}
    booleans: dict[str, list[str]] = {}
    for model, name in sorted(diff.gone_fields):
        was, now = before.pack.model(model), after.pack.model(model)
        if was is None or now is None:
            continue
        plural = _plural(was, now, name)
        if plural:
            renames[(model, name)] = FieldRename(model, name, plural)
        field = was.fields[name]
        if field.type == "boolean" and field.store and not field.compute and _gained_active(was, now):
            booleans.setdefault(model, []).append(name)
    for model, names in booleans.items():
        if len(names) == 1:  # the one stored flag the model lost: what active says now
            renames[(model, names[0])] = FieldRename(model, names[0], "active", inverted=True)
    return renames


def _plural(was: PackModel, now: PackModel, name: str) -> str:
    """The many2many that took the relational field ``name``'s place ('' when none did)."""
    field = was.fields[name]
    if field.type not in ("many2one", "many2many"):
        return ""
    stem = name[:-3] if name.endswith("_id") else name
    for candidate in (f"{stem}_ids", f"{name}s"):
        added = now.fields.get(candidate)
        if (
            candidate not in was.fields
            and added is not None
            and added.type == "many2many"
            and added.comodel == field.comodel
        ):
            return candidate
    return ""


def _gained_active(was: PackModel, now: PackModel) -> bool:
    active = now.fields.get("active")
    return "active" not in was.fields and active is not None and active.type == "boolean"
