"""What each comparing pass of a step reads the two series from: the Odoo sources the user gave
(both: a forked core wins over the packs), else the two series' packs. Never one of each for a
comparison: a source reading and a pack differ in what they cover (demo data, modules the pack maker
skipped), and that difference would read as a change of the step."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from odoo_tools.series import PackRef, Series, pack_ref

# What a pass reads a series' core from: its Odoo source (the user's, which wins) or its pack
CoreSource = Path | PackRef

Pair = tuple[CoreSource, CoreSource]  # (source series', target series')


@dataclass(frozen=True)
class StepKnowledge:
    methods: Pair | None  # both sources, or both packs
    ids: Pair | None  # both sources, or both packs made from installed databases
    views: tuple[CoreSource | None, CoreSource] | None  # (the old series' if known, the target's)


NOTHING_READ = StepKnowledge(None, None, None)


def step_knowledge(
    source: Series, target: Series, old_source: Path | None, new_source: Path | None
) -> StepKnowledge:
    """What the comparing passes read; None where neither two sources nor two packs hold it. Views
    need only the target's: with the source series' too, a gone anchor's successor is found."""
    if old_source is not None and new_source is not None:
        pair = (old_source, new_source)
        return StepKnowledge(pair, pair, pair)
    old_pack, new_pack = pack_ref(str(source)), pack_ref(str(target))
    old_full, new_full = pack_ref(str(source), installed=True), pack_ref(str(target), installed=True)
    methods = (old_pack, new_pack) if old_pack is not None and new_pack is not None else None
    ids = (old_full, new_full) if old_full is not None and new_full is not None else None
    if new_source is not None:  # the target's source alone: its views, as before the packs
        return StepKnowledge(methods, ids, (None, new_source))
    return StepKnowledge(methods, ids, (old_full, new_full) if new_full is not None else None)
