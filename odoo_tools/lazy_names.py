"""Package faces that import their names on first use (PEP 562).

A face lists where each public name lives; a name is imported when it is first read, so a command
that needs one helper does not load the whole package (``check`` starts its early linters before the
heavy imports; the MCP server registers every tool without loading what the tools only use when
called). Type checkers see the names through the face's ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def first_use_getattr(namespace: dict[str, Any], where: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of a face: ``where`` maps each name to the module defining it."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        namespace[name] = value  # later lookups skip this function
        return value

    return __getattr__
