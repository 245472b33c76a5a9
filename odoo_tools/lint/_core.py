"""Where a real Odoo source is: ``--odoo-path``, odoo-bin's folder, odoo.conf's addons_path, a
pip-installed Odoo importable by ``--odoo-python``. (What the core of a series holds without one is
a series fact: ``odoo_tools.series.core_graph`` and the series packs.)"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.errors import AssistaError
from odoo_tools.process import run_process_sync

PYTHON_TIMEOUT_SECONDS = 60


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
