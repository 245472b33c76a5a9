"""One entry of the code catalogue: what a finding or rule code means, once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from odoo_tools.findings import Severity
from odoo_tools.series import SUPPORTED_SERIES, is_before

# Where a code comes from. static: our cross-file checks (with the manifest reader's, the
# dependency graph's and the index's findings); orm: the ORM-aware static checks; api-change: the
# series registry's removed and renamed constructs (static checks find them, migrate fixes them);
# migrate: what migrate rewrites or leaves as a finding, beyond the registry's changes; odoo-run:
# what a real Odoo run's log says; linter: pylint, flake8/ruff and OCA's hooks codes whose
# severity our default grading sets; tooling: what keeps a linter or a run from checking at all.
Family = Literal["static", "orm", "api-change", "migrate", "odoo-run", "linter", "tooling"]
FAMILIES: tuple[Family, ...] = ("static", "orm", "api-change", "migrate", "odoo-run", "tooling", "linter")


@dataclass(frozen=True)
class Entry:
    code: str  # the finding's code; "upgrade_code:*" stands for every code with that prefix
    family: Family
    title: str  # what the code says, in a line
    severity: Severity  # what the finding usually is
    why: str  # why that severity (ORM rules: what breaks, as their findings say it)
    hint: str  # what to do about it
    emitted_by: tuple[str, ...]  # the findings' ``source`` values that carry it
    since: str | None = None  # the first series it holds on (None: every supported series)
    until: str | None = None  # the last series it holds on (None: every newer one too)
    when: str = ""  # a series fact it needs (``access.operations``): it holds where that fact is set
    odoo_source: str = ""  # the Odoo file the fact was read in ("" when none: our own check)
    note: str = ""  # when a finding is graded otherwise than ``severity``

    @property
    def is_prefix(self) -> bool:
        return self.code.endswith(":*")

    def names(self, code: str) -> bool:
        """Whether a finding's ``code`` is this entry's."""
        return code.startswith(self.code[:-1]) if self.is_prefix else code == self.code

    def series(self) -> tuple[str, ...]:
        """The supported series it holds on, oldest first."""
        from odoo_tools.series import series_facts

        return tuple(
            series
            for series in SUPPORTED_SERIES
            if not (self.since and is_before(series, self.since))
            and not (self.until and is_before(self.until, series))
            and (not self.when or _fact(series_facts(series), self.when))
        )

    def window(self) -> str:
        """The series it holds on, in words: "every series", "18.0 on", "17.0 to 18.0", "20.0"."""
        held = self.series()
        if held == SUPPORTED_SERIES:
            return "every series"
        if not held:
            return "no supported series"
        if len(held) == 1:
            return held[0]
        if held[-1] == SUPPORTED_SERIES[-1] and not self.when:
            return f"{held[0]} on"
        return ", ".join(held) if self.when else f"{held[0]} to {held[-1]}"


def _fact(facts: object, dotted: str) -> bool:
    value = facts
    for part in dotted.split("."):
        value = getattr(value, part)
    return bool(value)
