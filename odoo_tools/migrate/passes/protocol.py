"""What a pass is: a function over a module's files in memory, with the knowledge of the two
series it needs said once, beside it. The step runs a pass when that knowledge is at hand, and the
report says what was not checked for want of it (``passes.table.unchecked``), so a clean dry run
without it is not read as a clean migration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.engine.step_knowledge import NOTHING_READ, StepKnowledge


class Knowledge(Enum):
    """Knowledge of the two series of a step that a pass may need beyond the bundled lists."""

    OLD_SOURCE = "the source series' Odoo source"
    NEW_SOURCE = "the target series' Odoo source"
    # Read from both sources when both are given, else from the two series' packs
    METHODS = "both series' core methods"
    XML_IDS = "both series' core external IDs"
    VIEWS = "the target series' core views"
    OLD_VIEWS = "the source series' core views"


@dataclass(frozen=True)
class Known:
    """What this run knows of the step's two series."""

    old_source: Path | None = None
    new_source: Path | None = None
    # what the comparing passes read (engine/step_knowledge.py): the sources, else the packs
    read: StepKnowledge = NOTHING_READ

    def has(self, needs: frozenset[Knowledge]) -> bool:
        return all(self._given(knowledge) for knowledge in needs)

    def _given(self, knowledge: Knowledge) -> bool:
        given = {
            Knowledge.OLD_SOURCE: self.old_source is not None,
            Knowledge.NEW_SOURCE: self.new_source is not None,
            Knowledge.METHODS: self.read.methods is not None,
            Knowledge.XML_IDS: self.read.ids is not None,
            Knowledge.VIEWS: self.read.views is not None,
            Knowledge.OLD_VIEWS: self.read.views is not None and self.read.views[0] is not None,
        }
        return given[knowledge]


PassRun = Callable[[ModuleFiles, StepReport, Known], None]
BOTH_SOURCES = frozenset({Knowledge.OLD_SOURCE, Knowledge.NEW_SOURCE})
METHODS = frozenset({Knowledge.METHODS})
XML_IDS = frozenset({Knowledge.XML_IDS})
VIEWS = frozenset({Knowledge.VIEWS})
BOTH_VIEWS = frozenset({Knowledge.VIEWS, Knowledge.OLD_VIEWS})
# what the sources or the packs stand for, in the order a report names them
SOURCES_OR_PACKS = (METHODS, XML_IDS, VIEWS, BOTH_VIEWS)
NEW_SOURCE = frozenset({Knowledge.NEW_SOURCE})
NOTHING: frozenset[Knowledge] = frozenset()


@dataclass(frozen=True)
class Pass:
    """One pass of a step. ``what`` is how the report names it when it did not run ("renamed core
    methods"); ``needs`` the knowledge it cannot run without; ``also`` what more it tells with more
    knowledge (the anchors' pass finds a gone anchor's successor only with the old source too)."""

    what: str
    needs: frozenset[Knowledge]
    run: PassRun
    also: tuple[tuple[str, frozenset[Knowledge]], ...] = ()

    def parts(self) -> list[tuple[str, frozenset[Knowledge]]]:
        """Each thing the pass tells with the knowledge it needs for it."""
        return [(self.what, self.needs), *self.also]
