"""Odoo's core modules without an Odoo source: names and dependencies per series, and where to
find a real source (``--odoo-path``, odoo-bin's folder, odoo.conf's addons_path, a pip-installed
Odoo importable by ``--odoo-python``).

The bundled lists (``core_modules/<series>.json``, 16.0-19.0: module -> depends, model -> defining
module, auto-install module -> its triggers) are made by ``scripts/core_modules.py --odoo-path SRC``
from an Odoo Community source (its docstring says the recipe; regenerating from the 17.0, 18.0 and
19.0 lab sources gives the committed files byte for byte). Each module sees the list of its own
series (manifest version, else the project's); a series without a list uses the nearest one, and
the report says so.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import AssistaError
from odoo_tools.process import run_process_sync
from odoo_tools.series import nearest_series

CORE_DIR = Path(__file__).resolve().parent / "core_modules"
PYTHON_TIMEOUT_SECONDS = 60


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


def is_core_root(root: Path) -> bool:
    """An addons folder of an Odoo source (``odoo/addons`` with base, or ``<odoo>/addons``)."""
    return (root / "base" / "__manifest__.py").is_file() or (root.parent / "odoo" / "release.py").is_file()


def split_core_roots(roots: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    """(the project's own roots, Odoo's core roots) of an addons path such as odoo.conf's."""
    own = [r for r in roots if not is_core_root(Path(r))]
    return own, [Path(r) for r in roots if is_core_root(Path(r))]


def core_roots_from_python(python: str) -> list[Path]:
    """The ``odoo.addons`` folders of an Odoo that ``python`` can import (a pip-installed Odoo).
    Run from a temporary folder so nothing of the project is importable."""
    code = "import odoo.addons as a; print('\\n'.join(a.__path__))"
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "VIRTUAL_ENV") if k in os.environ}
    with tempfile.TemporaryDirectory() as cwd:
        try:
            result = run_process_sync(
                [python, "-I", "-c", code], cwd=cwd, env=env, timeout=PYTHON_TIMEOUT_SECONDS
            )
        except (OSError, AssistaError):
            return []
    if result.returncode != 0:
        return []
    folders = [Path(line.strip()) for line in result.stdout.splitlines() if line.strip()]
    return [f for f in folders if f.is_dir()]
