"""What changed between two consecutive series, told by their packs alone (no Odoo source).

``PackRef(series)`` stands where a reader of an Odoo source takes a path: migrate's readers (core
methods, core external IDs, core views) read the series' pack instead when given one, so every
pass that compares two series works the same from two sources or from two packs. ``pack_ref``
gives one only when the pack is bundled and holds what is asked (external IDs and views need a
pack made from an installed database; methods do not).

``pack_diff(old, new)``: the facts of one step, computed once per pair per process (the packs are
loaded once): the external IDs, models, fields and methods the new series no longer has, and the
methods whose parameters changed. Only modules present in both packs are compared: a module the
new series dropped, or one the pack maker skipped, says nothing about the records it had.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.series._pack import SeriesPack
from odoo_tools.series._pack_files import load_pack, pack_header, pack_path


@dataclass(frozen=True, slots=True)
class PackRef:
    """A series' pack, in place of its Odoo source."""

    series: str
    path: Path  # the file read: readings of a pack are kept per file (a test's pack is another)

    @property
    def pack(self) -> SeriesPack:
        found = load_pack(self.path)
        if found is None:  # pack_ref read its header: only a file broken mid-run gets here
            raise LookupError(f"the series pack {self.path} cannot be read")
        return found


def pack_ref(series: str, *, installed: bool = False) -> PackRef | None:
    """The pack of ``series`` when one is bundled (or in ``ASSISTA_SERIES_PACKS``); with
    ``installed``, only a pack made from an installed database (external IDs and views)."""
    path = pack_path(series)
    header = pack_header(series)
    if path is None or header is None or (installed and not header.installed):
        return None
    return PackRef(series, path)


@dataclass(frozen=True)
class PackDiff:
    old: str
    new: str
    gone_xmlids: frozenset[str]  # "module.name" the old series had, its module still there
    gone_models: frozenset[str]
    gone_fields: frozenset[tuple[str, str]]  # (model, field) of models both series have
    gone_methods: frozenset[tuple[str, str]]  # (model, method) of models both series have
    changed_signatures: dict[tuple[str, str], tuple[str, str]]  # (model, method) -> (old, new) params


def pack_diff(old: str, new: str) -> PackDiff | None:
    """The step ``old`` -> ``new`` as the two packs tell it; None when one pack is missing."""
    before, after = pack_ref(old), pack_ref(new)
    return _diff(before, after) if before is not None and after is not None else None


@functools.cache
def _diff(old_ref: PackRef, new_ref: PackRef) -> PackDiff:
    before, after = old_ref.pack, new_ref.pack
    installed = pack_ref(old_ref.series, installed=True) and pack_ref(new_ref.series, installed=True)
    both = set(before.modules) & set(after.modules)
    gone_ids = {
        f"{module}.{name}"
        for module, names in before.xmlids.items()
        if module in both
        for name in names
        if name not in after.xmlids.get(module, {})
    }
    new_models = set(after.model_names)
    gone_models = {m for m in before.model_names if m not in new_models}
    gone_fields: set[tuple[str, str]] = set()
    gone_methods: set[tuple[str, str]] = set()
    changed: dict[tuple[str, str], tuple[str, str]] = {}
    for name in sorted(set(before.model_names) & new_models):
        was, now = before.model(name), after.model(name)
        if was is None or now is None:
            continue
        gone_fields |= {(name, f) for f in was.fields if f not in now.fields}
        for method, signature in was.methods.items():
            later = now.methods.get(method)
            if later is None:
                gone_methods.add((name, method))
            elif later.params != signature.params:
                changed[(name, method)] = (signature.params, later.params)
    return PackDiff(
        old=before.series,
        new=after.series,
        gone_xmlids=frozenset(gone_ids) if installed else frozenset(),
        gone_models=frozenset(gone_models),
        gone_fields=frozenset(gone_fields),
        gone_methods=frozenset(gone_methods),
        changed_signatures=changed,
    )
