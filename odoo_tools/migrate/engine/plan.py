"""Which modules move, from which series, through which steps, in which order: a module after the
modules of the same run it depends on, one series at a time up to the target."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

from odoo_tools.addons import ManifestCache, find_manifest_file
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.series import (
    SUPPORTED_SERIES,
    Series,
    is_before,
    is_supported,
    series_of_version,
    supported_between,
)

# What leaves a manifest unread as a whole (the others name one bad key and keep the rest).
_UNREAD_MANIFEST = frozenset(
    {"manifest-unreadable", "manifest-syntax", "manifest-not-dict", "file-too-large"}
)


@dataclass(frozen=True)
class PlannedModule:
    name: str
    folder: Path
    source: Series
    target: Series
    depends: tuple[str, ...]
    # (name, series) of dependencies beside the module, left out of the run and older than the
    # target: the target series cannot install them, so neither this module
    left_behind: tuple[tuple[str, str], ...] = ()

    @property
    def steps(self) -> list[tuple[Series, Series]]:
        """One step per series the registry knows between the two: (17.0, 18.0), (18.0, 19.0)."""
        return list(pairwise(supported_between(self.source, self.target)))


def parse_series(text: str, given_as: str = "--to / to_series") -> int:
    """A supported series' major (``"18.0"``, ``"18"`` -> 18); anything else is bad input naming
    the supported series (and ``given_as``, the option it came from)."""
    return Series.named(text, given_as).major


def module_folders(paths: Sequence[Path]) -> list[Path]:
    """Module folders named directly, or the modules inside a folder of modules."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            raise NotFound(f"{path} is not a folder.", hint="Give module folders or a folder of modules.")
        if find_manifest_file(path) is not None:
            found.append(path.resolve())
            continue
        inside = sorted(
            p.resolve() for p in path.iterdir() if p.is_dir() and find_manifest_file(p) is not None
        )
        _refuse_links_out(path, inside)
        if not inside:
            raise NotFound(f"{path} holds no Odoo module (no __manifest__.py)", hint="Give module folders.")
        found += inside
    return list(dict.fromkeys(found))


def _refuse_links_out(folder: Path, modules: list[Path]) -> None:
    """A module of a folder of modules that is a symlink leading out of it would be read and
    written where the link points (a repository can carry such a link): refused, as the MCP tool
    refuses a path leaving its addons roots. Naming the module folder itself is the user's choice."""
    top = folder.resolve()
    outside = [m for m in modules if not m.is_relative_to(top)]
    if outside:
        link = next(p for p in folder.iterdir() if p.resolve() == outside[0])
        raise InvalidInput(
            f"{link} is a symlink to {outside[0]}, outside {folder}: nothing was migrated.",
            hint="Remove the link, or name the module folder it points to if you mean to migrate it.",
        )


def plan_migration(
    paths: Sequence[Path], to_series: str, from_series: str | None = None
) -> list[PlannedModule]:
    target = Series.named(to_series, "--to / to_series")
    forced = Series.named(from_series, "--from / from_series") if from_series else None
    manifests = ManifestCache()
    modules: dict[str, PlannedModule] = {}
    for folder in module_folders(paths):
        read = manifests.read(folder, folder.parent)
        unread = [f for f in read.findings if f.code in _UNREAD_MANIFEST]
        if unread:  # its version and dependencies would be defaults, not what the file says
            raise InvalidInput(
                f"{unread[0].message} Nothing was migrated.",
                hint=unread[0].hint or "Fix the manifest, then migrate again.",
            )
        manifest = read.manifest
        series = series_of_version(manifest.version)
        if forced is None and series is not None and not is_supported(series):
            raise InvalidInput(
                f"{folder.name} is a {series} module: migrate moves modules between the supported "
                f"series ({', '.join(SUPPORTED_SERIES)})",
                hint=f"Port it to {SUPPORTED_SERIES[0]} first.",
            )
        # --from is for versions that do not say a supported series ('1.0'): in a folder of modules
        # it must not move a module whose version says 17.0 past its 17.0 -> 18.0 step
        source = Series.named(series) if series is not None and is_supported(series) else forced
        if source is None:
            raise InvalidInput(
                f"{folder.name}: the manifest's version '{manifest.version}' does not say its series",
                hint="Give the series it is written for (--from 17.0, or from_series of migrate_module).",
            )
        if target.is_before(source):
            raise InvalidInput(f"{folder.name} is already {source}, newer than {target}")
        if folder.name in modules:
            raise InvalidInput(f"two folders hold the module {folder.name}")
        modules[folder.name] = PlannedModule(folder.name, folder, source, target, manifest.depends)
    for name, planned in modules.items():
        behind = tuple(_left_behind(planned, modules, manifests))
        if behind:
            modules[name] = replace(planned, left_behind=behind)
    return _dependency_order(modules)


# What a dependency beside the module may be called: a name, never a path the manifest makes up
_MODULE_NAME = re.compile(r"\w+")


def _left_behind(
    planned: PlannedModule, modules: dict[str, PlannedModule], manifests: ManifestCache
) -> Iterator[tuple[str, str]]:
    for name in planned.depends:
        if name in modules or not _MODULE_NAME.fullmatch(name):
            continue  # migrated in this run, or no module name ("../x", "/x": outside the addons root)
        folder = planned.folder.parent / name
        if folder.is_symlink() or find_manifest_file(folder) is None:
            continue  # not beside it (core, another repository)
        series = series_of_version(manifests.read(folder, folder.parent).manifest.version)
        if series is not None and is_before(series, str(planned.target)):
            yield name, series


def _dependency_order(modules: dict[str, PlannedModule]) -> list[PlannedModule]:
    ordered: list[PlannedModule] = []
    placed: set[str] = set()
    visiting: set[str] = set()

    def place(name: str) -> None:
        if name in placed or name in visiting:
            return  # a cycle: Odoo refuses it at install; the order inside it does not matter here
        visiting.add(name)
        for dependency in modules[name].depends:
            if dependency in modules:
                place(dependency)
        visiting.discard(name)
        placed.add(name)
        ordered.append(modules[name])

    for name in sorted(modules):
        place(name)
    return ordered
