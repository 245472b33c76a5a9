"""Data files: every file the manifest lists exists; XML/CSV files on disk are listed."""

from __future__ import annotations

import glob
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
    qweb = set(manifest.qweb)
    for listed in dict.fromkeys(ctx.manifest_files):
        if listed in qweb and listed not in manifest.data + manifest.demo:
            found += _qweb_entry(ctx, listed, manifest_rel, _line_of(manifest_text, listed))
        elif not (ctx.addon.path / listed).is_file():
            found.append(
                _missing(
                    ctx, listed, demo_only=listed not in manifest.data, line=_line_of(manifest_text, listed)
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


def _missing(ctx: StaticContext, listed: str, *, demo_only: bool, line: int | None) -> Finding:
    """Odoo loads demo files in a savepoint and installs the module without them when one fails
    (``load_demo``, read in 16.0-19.0), so a missing demo-only file breaks only installs with demo data."""
    if demo_only:
        message = (
            f"The manifest lists {listed!r} as demo data, which does not exist: installs with demo "
            "data go on without the module's demo records."
        )
    else:
        message = f"The manifest lists {listed!r}, which does not exist."
    return ctx.finding(
        "data-file-missing",
        message,
        "Create the file, fix the path (relative to the module folder), or remove the entry.",
        ctx.addon.manifest.file,
        line,
        severity="warning" if demo_only else "error",
    )


def _qweb_entry(ctx: StaticContext, pattern: str, manifest_rel: str, line: int | None) -> list[Finding]:
    """Before 15.0 the web client globs each ``qweb`` entry (web's ``manifest_glob``): a pattern
    is fine when it matches a file, and one that matches nothing loads nothing, silently; the
    module still installs and runs, only those templates are missing."""
    if _matches(ctx.addon.path, pattern):
        return []
    return [
        ctx.finding(
            "data-file-missing",
            f"The qweb entry {pattern!r} of the manifest matches no file: the web client loads no "
            "template from it (Odoo skips it silently).",
            "Fix the path (relative to the module folder), or remove the entry.",
            manifest_rel,
            line,
            severity="warning",
        )
    ]


def _matches(module_dir: Path, pattern: str) -> bool:
    if not glob.has_magic(pattern):
        return (module_dir / pattern).is_file()
    try:
        return any(path.is_file() for path in module_dir.glob(pattern))
    except (ValueError, NotImplementedError, OSError):  # an absolute or otherwise odd pattern
        return False


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
