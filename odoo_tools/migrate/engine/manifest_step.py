"""The manifest's version for the new series, as OCA writes it (``18.0.1.0.0``), edited in place;
the old series' ``migrations/`` scripts removed (they upgrade databases of the old series)."""

from __future__ import annotations

import ast
import re

from odoo_tools.addons import find_manifest_file
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.series import Series

MANIFESTS = ("__manifest__.py", "__openerp__.py")
_VERSION_FOLDER = re.compile(r"^(\d+)\.0\.")


def manifest_rel(files: ModuleFiles) -> str | None:
    found = find_manifest_file(files.folder)
    return found.name if found is not None and found.name in files.texts else None


def manifest_version(files: ModuleFiles) -> tuple[str, ast.Constant] | None:
    rel = manifest_rel(files)
    if rel is None:
        return None
    try:
        tree = ast.parse(files.texts[rel])
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                named = isinstance(key, ast.Constant) and key.value == "version"
                if named and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    return rel, value
    return None


def bump_version(files: ModuleFiles, report: StepReport) -> None:
    found = manifest_version(files)
    if found is None:
        report.find(
            "version-bump",
            files.site_path(MANIFESTS[0]),
            None,
            "The manifest has no literal version.",
            f"Write 'version': '{report.target_series}.1.0.0'.",
        )
        return
    rel, node = found
    text = files.texts[rel]
    starts = [0, *(match.end() for match in re.finditer("\n", text))]  # ast counts lines by \n
    start = _offset(text, starts[node.lineno - 1], node.col_offset)
    end = _offset(text, starts[(node.end_lineno or node.lineno) - 1], node.end_col_offset or 0)
    literal = text[start:end]
    quote = literal[-1] if literal and literal[-1] in "'\"" else '"'
    files.texts[rel] = f"{text[:start]}{quote}{report.target_series}.1.0.0{quote}{text[end:]}"
    report.count("version-bump")


def _offset(text: str, line_start: int, byte_column: int) -> int:
    """The text offset of an ast column (ast counts UTF-8 bytes from the line's start)."""
    line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
    return line_start + len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))


def remove_old_migrations(files: ModuleFiles, report: StepReport) -> None:
    """``migrations/<old series>.x.y.z/`` (and ``upgrades/``) go, as OCA does on each port."""
    folders = sorted(
        {
            "/".join(p.split("/")[:2])
            for p in [*files.texts, *files.other_files]
            if p.split("/")[0] in ("migrations", "upgrades") and p.count("/") >= 2
        }
    )
    for folder in folders:
        version = folder.split("/")[1]
        match = _VERSION_FOLDER.match(version)
        old = (match and Series(int(match.group(1))).is_before(report.target)) or version == "0.0.0"
        if old and files.delete_folder(folder):
            report.count("old-migrations")


def note_assets(files: ModuleFiles, report: StepReport) -> None:
    """JS/OWL code changes with each series; nothing here rewrites it, a person or the agent must."""
    scripts = sorted(p for p in files.texts if p.startswith("static/src/") and p.endswith(".js"))
    if scripts:
        report.find(
            "js-assets",
            files.site_path(scripts[0]),
            None,
            f"{len(scripts)} JavaScript file(s) under static/src were not migrated.",
            f"Check them against the {report.target_series} web client (OWL components, patch(), "
            "registries, imports); the module's tours and QUnit/HOOT tests show what broke.",
            severity="info",
        )
