"""Odoo's core modules per series without an Odoo source: names, dependencies, the module that
defines each model, auto-install triggers.

The bundled lists (``core_modules/<series>.json``, 16.0-19.0) are made by ``scripts/core_modules.py
--odoo-path SRC`` from an Odoo Community source (its docstring says the recipe; regenerating from the
17.0, 18.0 and 19.0 lab sources gives the committed files byte for byte). Each module sees the list
of its own series (manifest version, else the project's); a series without a list uses the nearest
one for module names only, and the report says so.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.series._names import nearest_series

CORE_DIR = Path(__file__).resolve().parent / "core_modules"
# The core models' fields read from each series' source by scripts/core_fields.py (what migrate
# diffs between two series; the static checks read the series packs).
CORE_FIELDS_DIR = Path(__file__).resolve().parent / "core_fields"


@dataclass(frozen=True)
class CoreList:
    series: str  # the series of the list used ("" when none is bundled)
    depends: dict[str, tuple[str, ...]]  # core module -> its depends
    models: dict[str, str]  # model -> the core module that defines it
    auto_install: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)  # -> triggers


@functools.cache
def core_graph(series: str | None) -> CoreList:
    """The bundled list for ``series``, or the nearest one."""
    chosen = nearest_series(series, (p.stem for p in CORE_DIR.glob("*.json")))
    if chosen is None:
        return CoreList("", {}, {})
    raw = json.loads((CORE_DIR / f"{chosen}.json").read_text(encoding="utf-8"))
    depends = {name: tuple(deps) for name, deps in raw["depends"].items()}
    auto = {name: tuple(triggers) for name, triggers in raw.get("auto_install", {}).items()}
    return CoreList(chosen, depends, dict(raw.get("models", {})), auto)


@functools.cache
def stable_core_models() -> dict[str, str]:
    """Models every bundled list puts in the same core module (``sale.order`` -> ``sale``): what a
    module may be told without knowing its series, with an Odoo source that lacks the module too."""
    lists = [core_graph(p.stem).models for p in sorted(CORE_DIR.glob("*.json"))]
    if not lists:
        return {}
    return {model: module for model, module in lists[0].items() if all(m.get(model) == module for m in lists)}
