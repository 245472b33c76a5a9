"""The target Odoo source's own ``odoo/upgrade_code/*.py`` scripts, run as ``odoo-bin upgrade_code``
runs them (odoo/cli/upgrade_code.py: a file manager of the addon's files, each script's
``upgrade(file_manager)`` in name order, versions above the old series and up to the new one),
but over the module's files in memory: nothing is written, and no code of the module runs. The
scripts are Odoo's (the user's own Odoo source), the first word on Odoo's own changes."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.series import Series

EXTENSIONS = ("py", "js", "css", "scss", "xml", "csv")  # what Odoo's file manager lists


class _File:
    """What a script sees of one file: ``path``, ``addon`` and a ``content`` it may reassign."""

    def __init__(self, files: ModuleFiles, rel: str) -> None:
        self._files = files
        self.rel = rel
        self.path = files.folder / rel
        self.addon = files.folder
        self.dirty = False

    @property
    def content(self) -> str:
        return self._files.texts[self.rel]

    @content.setter
    def content(self, value: str) -> None:
        if value != self._files.texts[self.rel]:
            self._files.texts[self.rel] = value
            self.dirty = True


class _FileManager:
    def __init__(self, files: ModuleFiles) -> None:
        self._files = {
            str(files.folder / rel): _File(files, rel)
            for rel in files.texts
            if rel.rsplit(".", 1)[-1] in EXTENSIONS
        }
        self.addons_path = [str(files.folder.parent)]
        self.glob = "**/*"

    def __iter__(self) -> Iterator[_File]:
        return iter(list(self._files.values()))

    def get_file(self, path: object) -> _File | None:
        return self._files.get(str(path))

    def print_progress(self, current: int, total: int) -> None:
        pass


def _version(name: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in name.split("-", 1)[0].split("."))
    except ValueError:
        return None


def upgrade_scripts(odoo_source: Path, source: Series, target: Series) -> list[Path]:
    """The scripts of ``odoo_source`` for the step ``source`` -> ``target``, in Odoo's order."""
    folder = odoo_source / "odoo" / "upgrade_code"
    if not folder.is_dir():
        return []
    picked = []
    for path in sorted(folder.glob("*.py"), key=str):
        version = _version(path.name)
        if version is not None and source.steps_over(target, version):
            picked.append(path)
    return picked


def run_upgrade_code(files: ModuleFiles, odoo_source: Path, report: StepReport) -> None:
    for script in upgrade_scripts(odoo_source, report.source, report.target):
        before = dict(files.texts)
        rule = f"upgrade_code:{script.stem}"
        try:
            module = _load(script)
            manager = _FileManager(files)
            module.upgrade(manager)
        except Exception as exc:
            files.texts = before
            report.find(
                rule,
                files.name,
                None,
                f"Odoo's upgrade_code script {script.name} failed: {exc!r}",
                "Its changes were not kept; the rules of this tool still ran.",
                severity="info",
            )
            continue
        changed = sum(1 for rel, text in files.texts.items() if before.get(rel) != text)
        if changed:
            report.count(rule, changed)


def _load(script: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"odoo_upgrade_code_{script.stem.replace('-', '_')}", script
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {script}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
