"""Series names: reading them, ordering them, and the one ``normalize_series``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from odoo_tools.errors import InvalidInput
from odoo_tools.series._api_changes import API_CHANGES, ApiChange
from odoo_tools.series._facts import SERIES, SeriesFacts

SUPPORTED_SERIES: tuple[str, ...] = tuple(facts.series for facts in SERIES)
_BY_SERIES = {facts.series: facts for facts in SERIES}
# "18", "18.0", "saas~17.2", and a manifest version "18.0.1.0.0" (its series prefix)
_SERIES_TEXT = re.compile(r"^(saas~)?(\d{1,2})(?:\.(\d+))?(?:\.\d+){0,3}$")
_MANIFEST_VERSION = re.compile(r"^([89]|[1-9]\d)\.0\.\d+\.\d+")  # "17.0.1.0.0": series.x.y[.z], 8.0 on


def series_major(series: str | None) -> int | None:
    """``"18.0"`` -> 18, ``"saas~17.2"`` -> 17; ``None`` or anything else -> ``None``."""
    match = _SERIES_TEXT.match(series.strip()) if series else None
    return int(match.group(2)) if match else None


def series_family(series: str | None) -> str | None:
    """The stable series a name belongs to, supported or not: ``"18"``, ``"18.0.1.0.0"`` ->
    ``"18.0"``; a saas release belongs to the stable series it forked from (``"saas~17.2"`` ->
    ``"17.0"``); anything else -> ``None``."""
    major = series_major(series)
    return f"{major}.0" if major is not None else None


def series_of_version(version: str) -> str | None:
    """A manifest version's series prefix: ``"17.0.1.0.0"`` -> ``"17.0"``; ``"1.0"`` -> ``None``."""
    match = _MANIFEST_VERSION.match(version.strip())
    return f"{match.group(1)}.0" if match else None


def is_supported(series: str | None) -> bool:
    return series_family(series) in _BY_SERIES


def normalize_series(text: str | None, given_as: str = "odoo_series / --odoo-series") -> str:
    """The supported series ``text`` names (``"18"``, ``" 18.0 "``, ``"saas~18.2"``,
    ``"18.0.1.0.0"`` -> ``"18.0"``); anything else, unsupported series included, is bad input
    that names the supported ones. ``given_as``: the setting or option the text came from, for
    the hint."""
    family = series_family(text)
    if family in _BY_SERIES:
        return family
    what = "is not supported" if family else "is not an Odoo series like 18.0"
    raise InvalidInput(
        f"Odoo series {text!r} {what}: supported are {', '.join(SUPPORTED_SERIES)}.",
        f"Give {given_as} one of them.",
    )


def series_facts(series: str | None) -> SeriesFacts:
    """The facts of a supported series; any other is bad input naming the supported ones."""
    return _BY_SERIES[normalize_series(series)]


def known_facts(series: str | None) -> SeriesFacts | None:
    """The facts of ``series`` when it is supported, else ``None`` (a series detected from a
    project may be anything: the caller then assumes nothing about it)."""
    family = series_family(series)
    return _BY_SERIES.get(family) if family else None


def series_key(series: str) -> tuple[int, int]:
    """Sort key: ``"9.0"`` < ``"18.0"`` < ``"saas~18.2"`` < ``"19.0"``; not a series: first."""
    match = _SERIES_TEXT.match(series.strip())
    return (int(match.group(2)), int(match.group(3) or 0)) if match else (-1, -1)


def is_before(series: str, other: str) -> bool:
    """Whether ``series`` is older than ``other`` (``"17.0"`` before ``"18.0"``, ``"saas~17.2"``)."""
    return series_key(series) < series_key(other)


def next_series(series: str) -> str | None:
    """The supported series a module of ``series`` migrates to (``"17.0"`` -> ``"18.0"``); ``None``
    after the newest. ``series`` must be supported (``normalize_series`` raises otherwise)."""
    index = SUPPORTED_SERIES.index(normalize_series(series))
    return SUPPORTED_SERIES[index + 1] if index + 1 < len(SUPPORTED_SERIES) else None


def previous_series(series: str) -> str | None:
    """The supported series before ``series`` (``"18.0"`` -> ``"17.0"``); ``None`` for the oldest."""
    index = SUPPORTED_SERIES.index(normalize_series(series))
    return SUPPORTED_SERIES[index - 1] if index else None


def nearest_series(series: str | None, available: Iterable[str]) -> str | None:
    """The one of ``available`` closest to ``series`` (ties: the newer); unknown series: the newest."""
    candidates = sorted(available, key=series_key)
    if not candidates:
        return None
    if series in candidates:
        return series
    wanted = series_key(series) if series else (-1, -1)
    if wanted[0] < 0:
        return candidates[-1]
    return min(candidates, key=lambda c: (abs(series_key(c)[0] - wanted[0]), -series_key(c)[0]))


def api_changes(series: str | None) -> tuple[ApiChange, ...]:
    """The changes in effect on ``series`` (none when it is not supported), one per construct: of
    a construct deprecated on one series and removed on a later one, the later entry."""
    facts = known_facts(series)
    if facts is None:
        return ()
    mine = series_key(facts.series)
    latest: dict[tuple[str, str], ApiChange] = {}
    for change in API_CHANGES:
        if series_key(change.since) <= mine:
            key = (change.kind, change.old)
            if key not in latest or series_key(change.since) >= series_key(latest[key].since):
                latest[key] = change
    return tuple(latest.values())


def api_change(change_id: str) -> ApiChange:
    """The entry with this id (a KeyError names an id no entry has)."""
    for change in API_CHANGES:
        if change.id == change_id:
            return change
    raise KeyError(change_id)
