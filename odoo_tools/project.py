"""One project: its addons roots, its Odoo source, its series and its code index, described once
and shared by its readers: lint, the server's knowledge tools and prompts, the CLI's check and
odoo commands, the bundled agent's prompt. Migration does not read it: it takes module folders
and the Odoo sources by series (``Settings.migration_sources``).

    project = Project.open(roots, readonly_roots, odoo_path=source, series="18.0", cache_dir=cache)
    project.addons()   # the addons found under the roots now (unchanged manifests are not re-read)
    project.series()   # SeriesInfo: the Odoo source > the own modules' manifests > the setting
    project.index()    # the code index, built on first use, then shared (each query refreshes it)

Opening reads nothing: every part is built when first asked for. The description is frozen; what
it finds on disk is not (a server's project gains modules while it runs), so ``addons`` and
``series`` look again each time, cheaply, and the index refreshes itself.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from odoo_tools.addons import AddonSet, ManifestCache, SeriesInfo, discover_addons, project_series

if TYPE_CHECKING:
    from odoo_tools.index import ProjectIndex


class _IndexSlot:
    """Holds the one code index of a project, built under a lock (two first queries at once build
    it once). Not part of the project's value: two equal projects may hold different indexes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.index: ProjectIndex | None = None


@dataclass(frozen=True)
class Project:
    roots: tuple[Path, ...]  # the project's own addons roots (written to, checked)
    readonly_roots: tuple[Path, ...] = ()  # Odoo's core addons folders: knowledge only
    odoo_path: Path | None = None  # the Odoo source tree, when there is one
    series_setting: str | None = None  # odoo_series / --odoo-series: used when nothing else says
    cache_dir: Path | None = None  # where the index keeps its cache; None: no cache on disk
    manifests: ManifestCache = field(default_factory=ManifestCache, compare=False, repr=False)
    _slot: _IndexSlot = field(default_factory=_IndexSlot, compare=False, repr=False)

    @classmethod
    def open(
        cls,
        roots: Sequence[Path],
        readonly_roots: Sequence[Path] = (),
        *,
        odoo_path: Path | None = None,
        series: str | None = None,
        cache_dir: Path | None = None,
        manifests: ManifestCache | None = None,
    ) -> Project:
        """The project over ``roots``; ``manifests`` lets a caller keep parsed manifests between
        projects (a server re-opens nothing, a CLI run opens one)."""
        return cls(
            tuple(Path(r) for r in roots),
            tuple(Path(r) for r in readonly_roots),
            odoo_path,
            series,
            cache_dir,
            manifests if manifests is not None else ManifestCache(),
        )

    def addons(self) -> AddonSet:
        """The addons under the roots, discovered now (manifests re-parsed only when changed)."""
        return discover_addons(self.roots, self.readonly_roots, self.manifests)

    def series(self, addons: AddonSet | None = None) -> SeriesInfo:
        """The project's series and where it came from (``addons``: a discovery already made)."""
        found = addons if addons is not None else self.addons()
        return project_series(found, self.odoo_path, self.series_setting)

    def index(self) -> ProjectIndex:
        """The project's code index, built on first use and then shared by every reader."""
        slot = self._slot
        with slot.lock:
            if slot.index is None:
                from odoo_tools.index import ProjectIndex  # the index is heavy: only its users load it

                slot.index = ProjectIndex(
                    self.roots,
                    self.readonly_roots,
                    cache_dir=self.cache_dir,
                    odoo_path=self.odoo_path,
                    series_setting=self.series_setting,
                    manifests=self.manifests,
                )
            return slot.index

    def forget_index(self) -> ProjectIndex | None:
        """Drop the index (the next ``index()`` builds a new one); returns what was held."""
        with self._slot.lock:
            index, self._slot.index = self._slot.index, None
        return index
