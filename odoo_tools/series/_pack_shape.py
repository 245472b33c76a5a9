"""A pack's values checked for their JSON types as they are read.

A pack may come from an ``ASSISTA_SERIES_PACKS`` folder, made by anyone: valid JSON with a list
where an object belongs (``"modules": [1, 2]``), a number where a name belongs, or nesting deeper
than the decoder goes. Such a pack is refused as a whole with one sentence naming the file and
the place (``BadPack``, a usage error: exit 2, a clean MCP error), never a TypeError traceback
from deep inside a check, and never half-believed (a wrong ``xmlids`` would make every core
external ID an error).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from odoo_tools.errors import ConfigError

# What decoding hostile JSON raises besides ValueError: nesting deeper than the decoder goes.
UNDECODABLE = (ValueError, RecursionError)


class BadPack(ConfigError):
    """A series pack whose content is not of the pack format's shape."""


def bad_pack(path: Path, where: str, what: str) -> BadPack:
    return BadPack(
        f"The series pack {path} is malformed: {where} {what}.",
        "Remove it from the ASSISTA_SERIES_PACKS folder, or make it again with scripts/series_pack.py.",
    )


def unreadable_pack(path: Path, why: str) -> BadPack:
    """A pack file that cannot be read at all (not gzip, cut short, not UTF-8 JSON): said so, not
    taken for "no pack" (which would silently turn off every check the pack feeds)."""
    return BadPack(
        f"The series pack {path} is not readable: {why}.",
        "Remove it from the ASSISTA_SERIES_PACKS folder, or make it again with scripts/series_pack.py.",
    )


def mapping(value: Any, path: Path, where: str) -> dict[str, Any]:
    """``value`` as an object (absent: empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad_pack(path, where, f"is {_kind(value)}, not an object")
    return value


def names(value: Any, path: Path, where: str) -> tuple[str, ...]:
    """``value`` as a list of names (absent: empty)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise bad_pack(path, where, "is not a list of names")
    return tuple(value)


def text(value: Any, path: Path, where: str) -> str:
    """``value`` as a string (absent, null or false: empty)."""
    if value is None or value is False:
        return ""
    if not isinstance(value, str):
        raise bad_pack(path, where, f"is {_kind(value)}, not a string")
    return value


def whole(value: Any, path: Path, where: str) -> int:
    """``value`` as an integer (absent: 0); a boolean is no integer here."""
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_pack(path, where, f"is {_kind(value)}, not an integer")
    return value


def objects(value: Any, path: Path, where: str) -> dict[str, dict[str, Any]]:
    """``value`` as an object of objects (the modules, a model's fields or methods)."""
    found = mapping(value, path, where)
    for key, item in found.items():
        mapping(item, path, f"{where}.{key}")
    return found


def strings_by_name(value: Any, path: Path, where: str) -> dict[str, str]:
    """``value`` as an object of strings (framework_methods, an ``inherits``, a module's ids)."""
    found = mapping(value, path, where)
    for key, item in found.items():
        text(item, path, f"{where}.{key}")
    return found


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return {list: "a list", dict: "an object", str: "a string", int: "a number", float: "a number"}.get(
        type(value), "null"
    )
