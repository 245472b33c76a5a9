"""The Odoo series of the project, detected in one place (what a series means: ``odoo_tools.series``).

Order of evidence: the Odoo source (``odoo/release.py``'s ``version_info``, parsed, never
imported) > the manifests' version prefixes (``"18.0.1.0.0"`` -> ``"18.0"``, the most common
wins) > the configured fallback (``Settings.odoo_series``, which must name a supported series
even when the source or the manifests decide). Everything version-dependent asks
``detect_series`` (or reads the ``SeriesInfo`` a caller got from it).

Exported by the face: ``SeriesInfo(series, source, detail)`` (``.major``, ``.supported``,
``.value``), ``detect_series(odoo_path=None, manifests=(), setting=None) -> SeriesInfo`` and
``project_series(addons, odoo_path, setting)``, the same over a discovered project's own modules.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from odoo_tools.addons._manifest import Manifest
from odoo_tools.series import (
    Series,
    is_supported,
    normalize_series,
    series_key,
    series_major,
    series_of_version,
)
from odoo_tools.sources import python_tree

if TYPE_CHECKING:
    from odoo_tools.addons._discovery import AddonSet

SeriesSource = Literal["odoo-source", "manifests", "setting", "unknown"]


@dataclass(frozen=True)
class SeriesInfo:
    series: str | None
    source: SeriesSource
    detail: str = ""

    @property
    def major(self) -> int | None:
        return series_major(self.series)

    @property
    def supported(self) -> bool:
        return is_supported(self.series)

    @property
    def value(self) -> Series | None:
        """The series as the one value code compares (``Series``): ``None`` when it is unknown or
        not a supported stable series (saas~17.2, 15.0), which only the text can name."""
        major = self.major
        return Series(major) if major is not None and self.supported and self.series == f"{major}.0" else None


def detect_series(
    odoo_path: Path | None = None,
    manifests: Iterable[Manifest] = (),
    setting: str | None = None,
) -> SeriesInfo:
    """The project's series and where it came from (see the module docstring for the order)."""
    chosen = normalize_series(setting) if setting else None  # a bad setting is an error whoever decides
    if odoo_path is not None:
        found = series_from_odoo_source(odoo_path)
        if found:
            return SeriesInfo(found, "odoo-source", str(odoo_path / "odoo" / "release.py"))
    manifests = list(manifests)
    found = series_from_manifests(manifests)
    if found:
        return SeriesInfo(found, "manifests", f"most common version prefix of {len(manifests)} manifests")
    if chosen:
        return SeriesInfo(chosen, "setting", "odoo_series setting")
    return SeriesInfo(None, "unknown", "no Odoo source, no versioned manifest, no odoo_series setting")


def project_series(addons: AddonSet, odoo_path: Path | None, setting: str | None) -> SeriesInfo:
    """The series of a discovered project: read from its Odoo source, else from the manifests of
    its own (writable) modules, never Odoo's core modules beside them, else the setting."""
    own = (addon.manifest for addon in addons.addons.values() if not addon.readonly)
    return detect_series(odoo_path, own, setting)


def series_from_odoo_source(odoo_path: Path) -> str | None:
    release = odoo_path / "odoo" / "release.py"
    return series_from_release_file(release) if release.is_file() else None


def series_from_release_file(path: Path) -> str | None:
    """``version_info = (18, 0, 0, FINAL, 0, '')`` -> ``"18.0"``; saas -> ``"saas~17.2"``."""
    tree = python_tree(path)
    if tree is None:
        return None
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Tuple):
            continue
        if not any(isinstance(t, ast.Name) and t.id == "version_info" for t in node.targets):
            continue
        parts = [e.value for e in node.value.elts[:2] if isinstance(e, ast.Constant)]
        if len(parts) == 2 and isinstance(parts[1], int):
            major = parts[0]
            if isinstance(major, int) or (isinstance(major, str) and major.startswith("saas~")):
                return f"{major}.{parts[1]}"
    return None


def series_from_manifests(manifests: Iterable[Manifest]) -> str | None:
    """The most common series prefix among the manifests' versions (ties: the newest)."""
    counts = Counter(s for m in manifests if m.parsed and (s := series_of_version(m.version)))
    if not counts:
        return None
    return max(counts, key=lambda s: (counts[s], series_key(s)))


def module_series(manifest: Manifest, project: str | None) -> str | None:
    """The series one module is written for: its own version's prefix (``"18.0.1.0.0"`` ->
    ``"18.0"``), else the project's (``detect_series``). OCA migrates a repository one module at a
    time, so a repository of mixed series is judged per module by this answer, by every check
    alike (linters, static checks, the module's facts)."""
    own = series_of_version(str(manifest.version)) if manifest.parsed else None
    return own or project


def selection_series(manifests: Iterable[Manifest], project: str | None) -> str | None:
    """The series of a selection of modules: theirs when they share one, else the project's."""
    found = {module_series(manifest, project) for manifest in manifests}
    return found.pop() if len(found) == 1 else project
