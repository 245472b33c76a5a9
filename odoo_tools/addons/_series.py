"""The Odoo series of the project (``"16.0"`` ... ``"19.0"``), decided in one place.

Order of evidence: the Odoo source (``odoo/release.py``'s ``version_info``, parsed, never
imported) > the manifests' version prefixes (``"18.0.1.0.0"`` -> ``"18.0"``, the most common
wins) > the configured fallback (``Settings.odoo_series``). Everything version-dependent asks
``detect_series`` (or reads the ``SeriesInfo`` a caller got from it).

Public API (stable):
- ``SUPPORTED_SERIES``; ``SeriesInfo(series, source, detail)``, ``.major`` (int or None)
- ``detect_series(odoo_path=None, manifests=(), setting=None) -> SeriesInfo``
- ``series_from_release_file(path)``, ``series_from_odoo_source(odoo_path)``,
  ``series_from_manifests(manifests)``, ``series_of_version(version)``, ``series_major(series)``,
  ``normalize_series(text)``
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from odoo_tools.addons._manifest import Manifest
from odoo_tools.errors import ConfigError

SUPPORTED_SERIES = ("16.0", "17.0", "18.0", "19.0")
SeriesSource = Literal["odoo-source", "manifests", "setting", "unknown"]

_VERSION_PREFIX = re.compile(r"^([89]|[1-9]\d)\.0\.\d+\.\d+")  # series.x.y[.z], series >= 8
_SERIES_TEXT = re.compile(r"^(?:saas~)?(\d{1,2})(?:\.(\d+))?$")


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
        return self.series in SUPPORTED_SERIES


def detect_series(
    odoo_path: Path | None = None,
    manifests: Iterable[Manifest] = (),
    setting: str | None = None,
) -> SeriesInfo:
    """The project's series and where it came from (see the module docstring for the order)."""
    if odoo_path is not None:
        found = series_from_odoo_source(odoo_path)
        if found:
            return SeriesInfo(found, "odoo-source", str(odoo_path / "odoo" / "release.py"))
    manifests = list(manifests)
    found = series_from_manifests(manifests)
    if found:
        return SeriesInfo(found, "manifests", f"most common version prefix of {len(manifests)} manifests")
    if setting:
        return SeriesInfo(normalize_series(setting), "setting", "odoo_series setting")
    return SeriesInfo(None, "unknown", "no Odoo source, no versioned manifest, no odoo_series setting")


def series_from_odoo_source(odoo_path: Path) -> str | None:
    release = odoo_path / "odoo" / "release.py"
    return series_from_release_file(release) if release.is_file() else None


def series_from_release_file(path: Path) -> str | None:
    """``version_info = (18, 0, 0, FINAL, 0, '')`` -> ``"18.0"``; saas -> ``"saas~17.2"``."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
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


def series_of_version(version: str) -> str | None:
    """``"17.0.1.0.0"`` -> ``"17.0"``; a version without a series prefix -> ``None``."""
    match = _VERSION_PREFIX.match(version.strip())
    return f"{match.group(1)}.0" if match else None


def series_from_manifests(manifests: Iterable[Manifest]) -> str | None:
    """The most common series prefix among the manifests' versions (ties: the newest)."""
    counts = Counter(s for m in manifests if m.parsed and (s := series_of_version(m.version)))
    if not counts:
        return None
    return max(counts, key=lambda s: (counts[s], float(s)))


def series_major(series: str | None) -> int | None:
    """``"18.0"`` -> 18, ``"saas~17.2"`` -> 17; ``None`` or anything else -> ``None``."""
    match = _SERIES_TEXT.match(series) if series else None
    return int(match.group(1)) if match else None


def normalize_series(text: str) -> str:
    """``"18"``, ``"18.0"``, ``" 18.0 "`` -> ``"18.0"``; anything else is a ConfigError."""
    cleaned = text.strip()
    match = _SERIES_TEXT.match(cleaned)
    if not match:
        raise ConfigError(
            f"Odoo series {text!r} is not a version like 18.0.",
            "Set odoo_series to one of " + ", ".join(SUPPORTED_SERIES) + ".",
        )
    prefix = "saas~" if cleaned.startswith("saas~") else ""
    return f"{prefix}{match.group(1)}.{match.group(2) or 0}"
