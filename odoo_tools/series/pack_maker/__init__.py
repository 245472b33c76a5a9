"""Making a series pack from a real Odoo (format 1; read by ``odoo_tools.series``).

``dump.py`` (and its ``pack_*`` siblings) run BY PATH under the Odoo's own interpreter, stdlib only: a
user's own ``odoo-bin`` can be asked for its pack the same way. This face is our side:
``DUMPER`` (the script's path), ``choose_modules`` (which modules a full pack installs, and why the
others are left out) and ``write_pack`` (the ``.json.xz`` bytes, the same for the same facts).
``ask_odoo`` runs the dumper under a given Odoo (the way to ask a user's own ``odoo-bin`` for its pack).
``scripts/series_pack.py`` drives the whole making.
"""

from __future__ import annotations

import gzip
import json
import lzma
import os
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DUMPER = Path(__file__).resolve().parent / "dump.py"
PACKS = Path(__file__).resolve().parent.parent / "packs"
LICENSE = "LGPL-3"  # the Community licence; Odoo reads a manifest without one as LGPL-3


def choose_modules(available: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], dict[str, str]]:
    """(the modules to install, module -> why it is left out) among ``available`` (``dump.py modules``):
    Odoo's own test modules and the IoT box's ``hw_*`` never go into a real database; a module not
    installable, not LGPL, missing an external dependency, or depending on a left-out module cannot."""
    skipped: dict[str, str] = {}
    for name, info in available.items():
        if name.startswith("test_") or name.startswith("hw_"):
            skipped[name] = "test or IoT box module"
        elif not info.get("installable", True):
            skipped[name] = "not installable"
        elif info.get("license", LICENSE) != LICENSE:
            skipped[name] = f"licence {info.get('license')}"
        elif info.get("missing_dependency"):
            skipped[name] = f"missing external dependency: {info['missing_dependency']}"
    changed = True
    while changed:
        changed = False
        for name, info in available.items():
            if name in skipped:
                continue
            gone = [d for d in info.get("depends", ()) if d not in available or d in skipped]
            if gone:
                skipped[name] = f"depends on {', '.join(sorted(gone))} (left out)"
                changed = True
    return sorted(n for n in available if n not in skipped), dict(sorted(skipped.items()))


def ask_odoo(python: str, odoo_bin: Path, config: Path, what: list[str]) -> dict[str, Any]:
    """What ``dump.py`` says (``["modules"]``, ``["pack", "-d", DB]``...) run by ``python`` for the Odoo
    of ``odoo_bin`` configured by ``config``; its stderr (Odoo's own log) goes through. Raises
    ``RuntimeError`` when it fails."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.json"
        odoo_dir = str(odoo_bin.resolve().parent)
        command = [python, str(DUMPER), what[0], "--odoo-dir", odoo_dir, "-c", str(config), "--out", str(out)]
        # a default's repr may be a set of strings: its order follows the hash seed
        done = subprocess.run([*command, *what[1:]], env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
        if done.returncode or not out.is_file():
            raise RuntimeError(f"dump.py {what[0]} failed under {python} (exit {done.returncode})")
        return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def pack_bytes(data: Mapping[str, Any], suffix: str = ".json.xz") -> bytes:
    """The file's bytes (``<series>.json.xz``): xz of compact JSON with sorted keys (a regeneration
    from the same Odoo differs only in ``made_by.date``). xz's strongest preset: the bundled packs are
    half their gzip size (5.9 MB -> 2.9 MB for 17.0-19.0) and unpack in 0.1 s; the reader still reads
    gzip (``.json.gz``, written when ``suffix`` asks for it, no timestamp in its header)."""
    payload = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    if suffix == ".json.gz":
        return gzip.compress(payload, compresslevel=9, mtime=0)
    return lzma.compress(payload, preset=9 | lzma.PRESET_EXTREME)


def write_pack(data: Mapping[str, Any], target: Path) -> int:
    """Write the pack (gzip when ``target`` ends in ``.json.gz``, else xz); its size in bytes."""
    payload = pack_bytes(data, ".json.gz" if target.name.endswith(".json.gz") else ".json.xz")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".tmp")
    temporary.write_bytes(payload)
    temporary.replace(target)
    return len(payload)
