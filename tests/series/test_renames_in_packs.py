"""Each ``renamed-*`` entry of api_changes.toml holds in the series packs of its two series: the old
name is on the model in the older pack and gone in the newer, where the new one is. The packs are
real registries (a full install of each series), so a rename read wrongly from a source fails here.

``old`` is read as Odoo's names: ``model[,model] name`` (a field or method of those models),
``method parameter`` (a parameter of a method, ``new`` its successor), or a bare ``name`` (every
model of the older pack that has it as a field or method).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from odoo_tools.series import API_CHANGES, ApiChange, SeriesPack, api_change, pack, previous_series

# What the packs cannot see, with why (every other renamed-* entry is checked).
NOT_IN_PACKS = {
    "renamed-group-operator": "a parameter of a field declaration (group_operator=): packs keep none",
    "renamed-route-readonly": "20.0 has no pack (an argument of @http.route, not of a model, in any case)",
    "renamed-type-base64": "20.0 has no pack (a value of a data file's type attribute, in any case)",
}
_PARAMS = re.compile(r"[A-Za-z_]\w*")


def _names(model: str, found: SeriesPack) -> set[str]:
    entry = found.model(model)
    return set() if entry is None else set(entry.fields) | set(entry.methods)


def _params(model: str, method: str, found: SeriesPack) -> set[str]:
    entry = found.model(model)
    known = None if entry is None else entry.methods.get(method)
    if known is None:
        return set()  # "(self, name='', args=None, *, order=None)": the name before each = or :
    return {m.group(0) for part in known.params.strip("()").split(",") if (m := _PARAMS.search(part))}


def pack_disagreements(change: ApiChange) -> list[str]:
    """What the two packs say against ``change`` (empty: they agree)."""
    older_series = previous_series(change.since)
    older, newer = pack(older_series or ""), pack(change.since)
    if older is None or newer is None:
        return [f"no pack for {older_series} or {change.since}"]
    words = change.old.split()
    if len(words) == 2 and "." not in words[0]:  # "method parameter"
        method, param = words
        models = [m for m in older.model_names if param in _params(m, method, older)]
        wrong = [
            m for m in models if newer.model(m) and not _params(m, method, newer) >= {change.new} - {param}
        ]
        wrong += [m for m in models if param in _params(m, method, newer)]
        what = f"{method}({param})"
    else:
        name = words[-1].rstrip("=")
        given = words[0].split(",") if len(words) == 2 else None
        models = given if given is not None else [m for m in older.model_names if name in _names(m, older)]
        wrong = [m for m in models if name not in _names(m, older)]
        wrong += [
            m
            for m in models
            if newer.model(m) and (name in _names(m, newer) or change.new not in _names(m, newer))
        ]
        what = name
    if not models:
        return [f"{what} is on no model of the {older_series} pack"]
    return [
        f"{m}: {what} -> {change.new} does not hold between {older_series} and {change.since}"
        for m in sorted(set(wrong))
    ]


RENAMES = [change for change in API_CHANGES if change.id.startswith("renamed-")]


@pytest.mark.parametrize("change", [c for c in RENAMES if c.id not in NOT_IN_PACKS], ids=lambda c: c.id)
def test_the_packs_of_both_series_agree_with_the_rename(change: ApiChange) -> None:
    assert pack_disagreements(change) == []


def test_every_rename_is_checked_or_says_why_the_packs_cannot_see_it() -> None:
    assert set(NOT_IN_PACKS) <= {change.id for change in RENAMES}
    assert len(RENAMES) - len(NOT_IN_PACKS) >= 8


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("res.partner name", "full_name"),  # name is still there, full_name never was
        ("stock.move.line qty_done", "quantity_moved"),  # the true old name, a made-up new one
        ("no_such_field_anywhere", "something"),  # on no model at all
        ("_name_search args", "where"),  # the parameter's successor is domain
    ],
)
def test_a_made_up_rename_fails(old: str, new: str) -> None:
    made_up = replace(api_change("renamed-qty-done"), old=old, new=new)
    assert pack_disagreements(made_up)
