"""What Odoo removed or renamed, per series: the static checks FIND uses of ``old`` with these
entries, and ``odoo_tools.migrate`` attaches its rewrites to the same ``id`` to FIX them.

The entries are data, ``api_changes.toml`` beside this file, read once by ``load_api_changes``.
An entry is one change as it stands on one series: ``since`` is the first series where it holds,
``severity`` what a use of ``old`` is there (error: the install, an upgrade or the runtime breaks;
warning: deprecated, or ignored without breaking; info: style). The same construct turning from
deprecated into removed later is a second entry with its own id. ``source`` names the Odoo file the
fact was read in. Ids are stable: they are the findings' codes and the migration rules' keys.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, cast, get_args

from odoo_tools.findings import Severity
from odoo_tools.series._facts import SERIES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

DATA = Path(__file__).with_name("api_changes.toml")

# Where ``old`` is written, so a check knows what to look at:
# xml-attribute: an attribute of an element inside a view arch; xml-element: an element (tag) of a
# view arch; view-mode: a word of an act_window's view_mode; python-method: a method a model class
# defines (``def old``); python-call: in Python code, ``a.b`` the end of an attribute chain or an
# import, ``name`` an attribute (``x.name``), ``name=`` a keyword argument (a text with a space
# describes a change no scan finds);
# route-argument: a keyword of ``@http.route``; model-attribute: a class attribute of a model;
# xml-data: a ``<field>`` attribute value in data files; qweb-directive: a ``t-*`` attribute of a
# template (views, templates, reports); icon-class: an icon class (``class="fa fa-user"``,
# ``icon="fa-user"``) in XML data; model: records of a model (XML records, CSV files named after it).
Kind = Literal[
    "xml-attribute",
    "xml-element",
    "view-mode",
    "python-method",
    "python-call",
    "route-argument",
    "model-attribute",
    "xml-data",
    "qweb-directive",
    "icon-class",
    "model",
]


@dataclass(frozen=True)
class ApiChange:
    """One removed or renamed construct of Odoo, as it stands from series ``since`` on."""

    id: str  # stable; also the code of the findings about it, e.g. "removed-attrs"
    since: str  # the first series where this holds, e.g. "17.0"
    kind: Kind
    old: str  # what the module still writes
    new: str  # what replaces it ("" when nothing does)
    severity: Severity  # what a use is on that series
    message: str  # what happens, in Odoo's terms
    hint: str  # what to write instead
    source: str  # the Odoo file this was confirmed in
    element: str = ""  # xml-attribute: the element it is found on ("" for any element of a view arch)


def load_api_changes(path: Path = DATA) -> tuple[ApiChange, ...]:
    """Every entry of the data file, in its order. A wrong entry (an unknown key, kind, severity or
    series, a missing key, an id given twice) is a ValueError naming it: the file ships with the
    code, so it is a bug, never a user's input."""
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("change", [])
    changes = tuple(_change(entry, number) for number, entry in enumerate(entries, 1))
    ids = [change.id for change in changes]
    if twice := sorted({i for i in ids if ids.count(i) > 1}):
        raise ValueError(f"{path.name}: ids given twice: {', '.join(twice)}")
    return changes


_KEYS = {f.name for f in fields(ApiChange)}
_REQUIRED = _KEYS - {"element"}


def _change(entry: dict[str, object], number: int) -> ApiChange:
    where = f"api_changes.toml, entry {number} ({entry.get('id', '?')})"
    if unknown := sorted(set(entry) - _KEYS):
        raise ValueError(f"{where}: unknown keys {', '.join(unknown)}")
    if missing := sorted(_REQUIRED - set(entry)):
        raise ValueError(f"{where}: missing keys {', '.join(missing)}")
    if not all(isinstance(value, str) for value in entry.values()):
        raise ValueError(f"{where}: every value is a string")
    values = cast("dict[str, str]", entry)
    if values["kind"] not in get_args(Kind):
        raise ValueError(f"{where}: unknown kind {values['kind']!r}")
    if values["severity"] not in get_args(Severity):
        raise ValueError(f"{where}: unknown severity {values['severity']!r}")
    if values["since"] not in {facts.series for facts in SERIES}:
        raise ValueError(f"{where}: {values['since']!r} is not a series of the registry")
    return ApiChange(**values)  # type: ignore[arg-type]  # kind and severity checked above


API_CHANGES: tuple[ApiChange, ...] = load_api_changes()
