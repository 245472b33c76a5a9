"""The code catalogue: every finding and rule code the tool emits, declared once.

The face of the package (the ``_modules`` are private):
- ``Entry``: a code's title, severity and why, hint, series window (``since``/``until``/``when``,
  read through the series registry), the Odoo file it was read from, who emits it;
- ``entries(series=None, family=None)``: the entries, those holding on a series (``normalize_series``
  refuses an unsupported one) or of one family; ``entry(code)`` (KeyError for an unknown code),
  ``is_catalogued(code)``;
- ``render_markdown(entries)`` / ``render_json(entries)``: what ``assista-odoo rules`` prints and
  ``docs/rules.md`` holds.

The entries are data: ``codes/<family>.toml`` (static checks, ORM rules, migrate, Odoo runs,
tooling, linters' re-graded codes) plus the series registry's API changes
(``odoo_tools/series/api_changes.toml``). A check or a rewrite refers to its entry by code; a code
emitted without an entry fails ``tests/catalogue``.
"""

from __future__ import annotations

from functools import cache

from odoo_tools.catalogue._entry import FAMILIES, Entry, Family
from odoo_tools.catalogue._load import load_catalogue
from odoo_tools.catalogue._render import render_json, render_markdown
from odoo_tools.series import normalize_series


@cache
def _all() -> tuple[Entry, ...]:
    return load_catalogue()


@cache
def _by_code() -> dict[str, Entry]:
    return {e.code: e for e in _all() if not e.is_prefix}


def entries(series: str | None = None, family: Family | None = None) -> tuple[Entry, ...]:
    """The catalogue's entries, in its order; with ``series``, those holding on it."""
    wanted = normalize_series(series) if series is not None else None
    return tuple(
        e
        for e in _all()
        if (family is None or e.family == family) and (wanted is None or wanted in e.series())
    )


def entry(code: str) -> Entry:
    """The entry of a finding's code (a prefix entry such as ``upgrade_code:*`` included)."""
    found = _by_code().get(code) or next((e for e in _all() if e.is_prefix and e.names(code)), None)
    if found is None:
        raise KeyError(code)
    return found


def is_catalogued(code: str) -> bool:
    try:
        entry(code)
    except KeyError:
        return False
    return True


__all__ = [
    "FAMILIES",
    "Entry",
    "Family",
    "entries",
    "entry",
    "is_catalogued",
    "render_json",
    "render_markdown",
]
