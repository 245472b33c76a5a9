"""Data files: every file the manifest lists exists; XML/CSV files on disk are listed."""

from __future__ import annotations

import os
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.storage import read_capped

# Folders whose XML/CSV Odoo never loads through data/demo (assets, tests, migrations, i18n).
NOT_DATA_DIRS = frozenset({"static", "tests", "migrations", "upgrades", "i18n", "i18n_extra", "__pycache__"})
MANUAL_KEY = "oca_data_manual"  # OCA's manifest key for files loaded by hooks


def check_manifest_files(ctx: StaticContext) -> list[Finding]:
    manifest = ctx.addon.manifest
    if not manifest.parsed:
        return []
    found = []
    manifest_rel = manifest.file
    manifest_text = _read(ctx.absolute(manifest_rel))
    for listed in dict.fromkeys(ctx.manifest_files):
        if not (ctx.addon.path / listed).is_file():
            found.append(
                ctx.finding(
                    "data-file-missing",
                    f"The manifest lists {listed!r}, which does not exist.",
                    "Create the file, fix the path (relative to the module folder), or remove the entry.",
                    manifest_rel,
                    _line_of(manifest_text, listed),
                )
            )
    listed_set = set(manifest.data_files) | set(_manual(manifest.raw))  # qweb files are used too
    for rel in _data_like_files(ctx.addon.path):
        if rel not in listed_set:
            found.append(
                ctx.finding(
                    "data-file-unlisted",
                    f"{rel} is in the module but not listed in the manifest, so Odoo never loads it.",
                    "Add it to the manifest's 'data' (or 'demo') list, or delete it if it is unused.",
                    f"{ctx.addon.name}/{rel}",
                    None,
                    severity="warning",
                )
            )
    return found


def _data_like_files(module_dir: Path) -> list[str]:
    found = []
    for current, dirs, files in os.walk(module_dir):
        dirs[:] = sorted(d for d in dirs if d not in NOT_DATA_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".xml", ".csv")):
                found.append((Path(current) / name).relative_to(module_dir).as_posix())
    return found


def _manual(raw: dict[str, object]) -> list[str]:
    value = raw.get(MANUAL_KEY)
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


def _read(path: Path) -> str:
    try:
        raw = read_capped(path)
        return "" if raw is None else raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _line_of(text: str, needle: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None
