"""What a lint run works on: the addons found under the roots, the series, each root's config."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from odoo_tools.addons import (
    Addon,
    AddonSet,
    ManifestCache,
    module_series,
    selection_series,
)
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.findings import Finding
from odoo_tools.lint._configs import LintConfig, config_for_root, config_note, uses_ruff_by_default
from odoo_tools.project import Project
from odoo_tools.series import SUPPORTED_SERIES, core_graph, is_supported, pack_header

if TYPE_CHECKING:
    from odoo_tools.index import ProjectIndex


@dataclass
class LintProject:
    addon_set: AddonSet
    series: str | None
    roots: tuple[Path, ...]
    index_provider: Callable[[], ProjectIndex] | None = None
    profile: str | None = None  # "oca" / "default" forces the grading; None: from each root's files
    _configs: dict[tuple[Path, bool], LintConfig] = field(default_factory=dict)
    _index: ProjectIndex | None = None

    def index(self) -> ProjectIndex:
        """The code index (``odoo_tools.index.ProjectIndex``), built on first use and refreshed."""
        if self._index is None:
            if self.index_provider is None:
                raise RuntimeError("LintProject has no index provider")  # lint_project always sets one
            self._index = self.index_provider()
            self._index.refresh()
        return self._index

    @functools.cached_property
    def graph_findings(self) -> list[Finding]:
        """Missing dependencies and cycles, worked out once (static checks ask per module)."""
        return self.addon_set.graph_findings()

    def config_for(self, addon: Addon) -> LintConfig:
        # Without project files the defaults follow the addon's series (ruff from 17.0).
        series = self.series_of(addon)
        key = (addon.root, uses_ruff_by_default(series))
        if key not in self._configs:
            self._configs[key] = config_for_root(addon.root, self.profile, series)
        return self._configs[key]

    def series_of(self, addon: Addon) -> str | None:
        """The series ``addon`` is written for: its manifest's version prefix ("16.0.1.0.0"), else
        the project's (most manifests, or --odoo-series). Every check asks this, never
        ``self.series``: a repository migrated one module at a time holds several series."""
        return module_series(addon.manifest, self.series)

    def series_for(self, addons: Sequence[Addon]) -> str | None:
        """The series of what a run checks (``addons``), for its report and notes."""
        return selection_series((a.manifest for a in addons), self.series)

    def checkable(self) -> list[Addon]:
        """Every installable addon of the project's own (writable) roots, by name, plus those
        whose manifest does not parse (so they are reported, never silently skipped)."""
        addons = [self.addon_set.addons[name] for name in self.addon_set.names()]
        return [a for a in addons if not a.readonly and (a.installable or not a.manifest.parsed)]

    def notes(self, addons: Sequence[Addon] = ()) -> list[str]:
        """One line per thing the user should know about this run: the configuration used for
        ``addons``, what was ignored in it for safety, the limits of the cross-module checks."""
        notes: list[str] = []
        for config in dict.fromkeys(self.config_for(a) for a in addons):
            notes.append(config_note(config))
            if config.ignored:
                notes.append(
                    "ignored in the project's configuration (linters never run the project's code): "
                    + "; ".join(config.ignored)
                )
        series = self.series_for(addons) if addons else self.series
        return notes + self._series_notes(series) + self._source_notes(series)

    def _series_notes(self, series: str | None) -> list[str]:
        """A detected series the registry does not know: say what is then left unchecked."""
        if series is None or is_supported(series):
            return []
        return [
            f"Odoo {series} is not a supported series ({', '.join(SUPPORTED_SERIES)}): what it removed "
            "or renamed, how it grants access and what it checks in manifests are not checked."
        ]

    def _source_notes(self, series: str | None) -> list[str]:
        return self._pack_notes(series) + self._core_list_notes(series)

    def _pack_notes(self, series: str | None) -> list[str]:
        """Which series pack judged the core's models, fields and methods, or which one is missing
        and what that silences (another series' pack is never used)."""
        if series is None or not is_supported(series):
            return []
        found = pack_header(series)  # a note opens no pack: a warm run may need none
        if found is None:
            return [
                f"no series pack for Odoo {series} is bundled: names on Odoo's core models (record "
                "fields, view fields and anchors, related/depends paths, inverse names, compute methods "
                "through them) are not checked; the project's own models still are."
            ]
        ids = ", external IDs" if found.installed else ""
        return [
            f"Odoo's core models, fields, methods{ids} checked from the Odoo {series} series pack "
            f"({found.odoo_version}, {found.modules} modules)."
        ]

    def _core_list_notes(self, series: str | None) -> list[str]:
        if self.addon_set.has_odoo_source:
            return []
        found = pack_header(series) if series and is_supported(series) else None
        used = core_graph(series).series
        known = (
            f"core module names, dependencies and models known from the bundled Odoo {used} list"
            + (f" (nearest to {series})" if series and used != series else "")
            if used
            else "core modules unknown"
        )
        if found is not None and found.installed:
            return [f"no Odoo source: {known}."]  # the pack has the core's external IDs
        return [
            f"cross-module checks limited: no Odoo source found, so xml ids of Odoo's core modules are "
            f"not checked ({known}). To check them, pass --odoo-path SRC, --odoo-bin, an odoo.conf whose "
            "addons_path holds Odoo's addons, or --odoo-python of a pip-installed Odoo."
        ]

    def skipped(self, targets: Sequence[str] = ()) -> dict[str, str]:
        """Modules of the project's own roots left out on purpose, with the reason (so a run
        never drops one silently): ``installable: False`` in their manifest."""
        scope = [Path(os.path.realpath(t)) for t in targets if os.sep in t or Path(t).exists()]
        names = {t for t in targets if t in self.addon_set}
        skipped = {}
        for addon in self.addon_set.addons.values():
            if addon.readonly or addon.installable or not addon.manifest.parsed:
                continue
            wanted = (
                not targets
                or addon.name in names
                or any(p == addon.path or p in addon.path.parents or addon.path in p.parents for p in scope)
            )
            if wanted:
                skipped[addon.name] = "installable: False in its manifest"
        return dict(sorted(skipped.items()))

    def select(self, targets: Sequence[str]) -> list[Addon]:
        """Addons named by ``targets`` (module names, module folders, files inside modules, or
        folders holding modules); all checkable addons when ``targets`` is empty."""
        if not targets:
            return self.checkable()
        chosen: dict[str, Addon] = {}
        for target in targets:
            for addon in self._resolve_target(target):
                chosen[addon.name] = addon
        return [chosen[name] for name in sorted(chosen)]

    def _resolve_target(self, target: str) -> list[Addon]:
        if target in self.addon_set and os.sep not in target:
            return [self.addon_set.addons[target]]
        path = Path(os.path.realpath(target))
        if not path.exists():
            raise NotFound(
                f"{target!r} is neither a module in the addons roots nor an existing path.",
                "Give a module name (its folder name) or a path inside an addons root.",
            )
        inside = [a for a in self.addon_set.addons.values() if path == a.path or a.path in path.parents]
        if inside:
            return inside
        below = [a for a in self.checkable() if path in a.path.parents]
        if below or path.is_file():
            return below  # a file outside every module (setup.py, README) selects nothing
        core = sorted(
            {str(a.root) for a in self.addon_set.addons.values() if a.readonly and path in a.path.parents}
        )
        if core:
            raise InvalidInput(
                f"{target!r} holds only modules of an Odoo source tree ({', '.join(core)}: an "
                "odoo/release.py or a base module beside them), taken as Odoo's own: they were skipped.",
                f"To check them as yours, name the module folders ({core[0]}/<module>), "
                "or move them out of the Odoo tree.",
            )
        raise InvalidInput(
            f"{target!r} holds no module of the addons roots.",
            "Check --addons-path: the path must be a module, a file in one, or a folder of modules.",
        )


def load_project(
    roots: Sequence[Path],
    readonly_roots: Sequence[Path] = (),
    *,
    odoo_path: Path | None = None,
    series_setting: str | None = None,
    cache_dir: Path | None = None,
    index_provider: Callable[[], ProjectIndex] | None = None,
    manifests: ManifestCache | None = None,
) -> LintProject:
    """Discover the addons and the series of the ``Project`` these arguments describe (see
    ``lint_project``). A ``manifests`` cache kept between calls re-parses only the manifests
    that changed."""
    project = Project.open(
        roots,
        readonly_roots,
        odoo_path=odoo_path,
        series=series_setting,
        cache_dir=cache_dir,
        manifests=manifests,
    )
    return lint_project(project, index_provider)


def lint_project(project: Project, index_provider: Callable[[], ProjectIndex] | None = None) -> LintProject:
    """What a lint run works on, read from ``project`` now: its addons and series; the code index
    is the project's own (built on first use), or ``index_provider``'s when one is given."""
    addon_set = project.addons()
    series = project.series(addon_set).series
    real_roots = tuple(Path(os.path.realpath(r)) for r in project.roots)
    return LintProject(addon_set, series, real_roots, index_provider or project.index)
