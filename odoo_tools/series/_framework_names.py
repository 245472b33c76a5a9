"""The public Python names of Odoo's framework modules per series (``odoo.tools``, ``odoo.osv``,
``odoo.fields``, ``odoo.models``, ``odoo.api``, ``odoo.http`` and their submodules), bundled as
``python_names/<series>.json`` by ``scripts/core_python_names.py`` from each series' source, and
what a series removed from the one before: an import of one of those fails on the newer series."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.series._names import series_key

DATA = Path(__file__).resolve().parent / "python_names"


@dataclass(frozen=True)
class FrameworkNames:
    series: str
    modules: dict[str, frozenset[str]]  # module -> the names ``from module import NAME`` finds
    open: frozenset[str]  # modules that make names on demand (module __getattr__): nothing is claimed


@functools.cache
def framework_names(series: str) -> FrameworkNames | None:
    """The bundled list of ``series``; None when none is bundled (or it cannot be read)."""
    try:
        raw = json.loads((DATA / f"{series}.json").read_text(encoding="utf-8"))
        modules = {module: frozenset(names) for module, names in raw["modules"].items()}
        return FrameworkNames(series, modules, frozenset(raw.get("open", ())))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


@dataclass(frozen=True)
class RemovedNames:
    old: str
    new: str
    modules: frozenset[str]  # framework modules gone altogether
    names: dict[str, frozenset[str]]  # module -> names it no longer gives
    after: FrameworkNames | None

    def removed(self, module: str, name: str) -> bool:
        return module in self.modules or name in self.names.get(module, frozenset())

    def still_in(self, name: str) -> list[str]:
        """The new series' framework modules that still give ``name`` (for a hint)."""
        if self.after is None:
            return []
        return sorted(m for m, names in self.after.modules.items() if name in names)


@functools.cache
def removed_framework_names(old: str, new: str) -> RemovedNames:
    """What series ``new``'s framework modules no longer give from series ``old``'s (empty when
    either list is missing; a module that makes names on demand in either series is left out)."""
    before, after = framework_names(old), framework_names(new)
    if before is None or after is None:
        return RemovedNames(old, new, frozenset(), {}, after)
    skipped = before.open | after.open
    gone = frozenset(m for m in before.modules if m not in after.modules and m not in skipped)
    names = {
        module: frozenset(listed - after.modules[module])
        for module, listed in before.modules.items()
        if module in after.modules and module not in skipped and listed - after.modules[module]
    }
    return RemovedNames(old, new, gone, names, after)


@functools.cache
def gone_by(series: str) -> RemovedNames:
    """Every name an older bundled series' framework modules gave that ``series``' no longer give
    (modules that make names on demand in either are left out): importing one fails on ``series``."""
    after = framework_names(series)
    older = [s for p in DATA.glob("*.json") if (s := p.stem) != series and _older(s, series)]
    gone: set[str] = set()
    names: dict[str, set[str]] = {}
    for old in older:
        before = framework_names(old)
        if before is None or after is None:
            continue
        for module, listed in before.modules.items():
            if module in before.open or module in after.open:
                continue
            if module not in after.modules:
                gone.add(module)
            elif listed - after.modules[module]:
                names.setdefault(module, set()).update(listed - after.modules[module])
    frozen = {module: frozenset(found) for module, found in names.items()}
    return RemovedNames(min(older, default=series, key=series_key), series, frozenset(gone), frozen, after)


def _older(one: str, other: str) -> bool:
    return series_key(one) < series_key(other)
