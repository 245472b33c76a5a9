"""Reading the catalogue: the data files under ``codes/`` and the series registry's API changes.

Each ``codes/<family>.toml`` holds ``[[entry]]`` tables (``linter.toml``: ``[[grade]]`` tables, one
severity for a list of a linter's codes). A wrong entry is a ValueError naming it: the files ship
with the code, so it is a bug, never a user's input.
"""

from __future__ import annotations

import sys
from dataclasses import fields
from pathlib import Path
from typing import Any, get_args

from odoo_tools.catalogue._entry import FAMILIES, Entry, Family
from odoo_tools.findings import Severity
from odoo_tools.series import API_CHANGES, SUPPORTED_SERIES, series_facts

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CODES = Path(__file__).with_name("codes")
_KEYS = {f.name for f in fields(Entry)} - {"family"}
_REQUIRED = {"code", "title", "severity", "why", "hint"}
_GRADE_KEYS = {"linter", "severity", "why", "hint", "codes"}


def load_catalogue(folder: Path = CODES) -> tuple[Entry, ...]:
    """Every entry: the data files' (in ``FAMILIES`` order), then the API changes'."""
    entries: list[Entry] = []
    for family in FAMILIES:
        path = folder / f"{family.replace('-', '_')}.toml"
        if path.is_file():
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            entries += _grades(data, path.name) if family == "linter" else _entries(data, family, path.name)
    entries += [_api_change_entry(change) for change in API_CHANGES]
    codes = [entry.code for entry in entries]
    if twice := sorted({code for code in codes if codes.count(code) > 1}):
        raise ValueError(f"codes catalogued twice: {', '.join(twice)}")
    return tuple(entries)


def _entries(data: dict[str, Any], family: Family, name: str) -> list[Entry]:
    emitted_by = data.get("emitted_by", [])
    result = []
    for number, raw in enumerate(data.get("entry", []), 1):
        where = f"{name}, entry {number} ({raw.get('code', '?')})"
        _check_keys(raw, _KEYS, _REQUIRED, where)
        values = {**raw, "emitted_by": tuple(raw.get("emitted_by", emitted_by))}
        result.append(_checked(Entry(family=family, **values), where))
    return result


def _grades(data: dict[str, Any], name: str) -> list[Entry]:
    result = []
    for number, grade in enumerate(data.get("grade", []), 1):
        where = f"{name}, grade {number}"
        _check_keys(grade, _GRADE_KEYS, _GRADE_KEYS, where)
        for code in grade["codes"]:
            entry = Entry(
                code=code,
                family="linter",
                title=f"{grade['linter']}'s {code}",
                severity=grade["severity"],
                why=grade["why"],
                hint=grade["hint"],
                emitted_by=tuple(grade["linter"].split("/")),
            )
            result.append(_checked(entry, f"{where} ({code})"))
    return result


def _api_change_entry(change: Any) -> Entry:
    new = f", now {change.new}" if change.new else ", with no successor"
    return Entry(
        code=change.id,
        family="api-change",
        title=f"{change.old} ({change.kind}){new}",
        severity=change.severity,
        why=change.message,
        hint=change.hint,
        emitted_by=("static", "migrate"),
        since=change.since,
        odoo_source=change.source,
    )


def _check_keys(raw: dict[str, Any], allowed: set[str], required: set[str], where: str) -> None:
    if unknown := sorted(set(raw) - allowed):
        raise ValueError(f"{where}: unknown keys {', '.join(unknown)}")
    if missing := sorted(required - set(raw)):
        raise ValueError(f"{where}: missing keys {', '.join(missing)}")


def _checked(entry: Entry, where: str) -> Entry:
    if entry.severity not in get_args(Severity):
        raise ValueError(f"{where}: unknown severity {entry.severity!r}")
    for series in (entry.since, entry.until):
        if series is not None and series not in SUPPORTED_SERIES:
            raise ValueError(f"{where}: {series!r} is not a series of the registry")
    if entry.when and not _is_fact(entry.when):
        raise ValueError(f"{where}: {entry.when!r} is not a series fact (SeriesFacts)")
    if not entry.emitted_by:
        raise ValueError(f"{where}: emitted_by names no finding source")
    return entry


def _is_fact(dotted: str) -> bool:
    value: object = series_facts(SUPPORTED_SERIES[-1])
    for part in dotted.split("."):
        if not hasattr(value, part):
            return False
        value = getattr(value, part)
    return True
