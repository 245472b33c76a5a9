"""Cache keys per (check, module): each covers exactly what that check reads.

- pylint reads the module's Python files and looks at which other files exist (manifest checks:
  resource-not-exist, missing-readme): names of every file, contents of ``.py``;
- flake8 / ruff read the Python files (and ruff a ``pyproject.toml``/``ruff.toml`` beside them);
- the OCA hooks read the manifest and the data files (XML, CSV, PO) and which files exist;
- the static checks read the whole project (a reference into any module, duplicates across
  modules): their key covers every module of the project and the read-only ones it uses.
So editing a Python file re-runs neither the OCA hooks nor anything on other modules except the
(cheap) static checks, and editing an XML file never re-runs pylint or flake8.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from odoo_tools.addons import Addon
from odoo_tools.lint._cache import SKIPPED_DIRS, cache_key
from odoo_tools.lint._project import LintProject
from odoo_tools.storage import FileDigests

MANIFESTS = frozenset({"__manifest__.py", "__openerp__.py"})
PYTHON_CONFIGS = frozenset({"pyproject.toml", "ruff.toml", ".ruff.toml", "setup.cfg", "tox.ini", ".flake8"})


def _reads_content(check: str, rel: str) -> bool | None:
    """Whether ``check`` reads the file's content (True), only its existence (False), or
    ignores it (None)."""
    name = rel.rsplit("/", 1)[-1]
    python = rel.endswith(".py")
    if check == "pylint":
        return python
    if check == "flake8":
        return True if python or name in PYTHON_CONFIGS else None
    if check == "oca-hooks":
        return not python or name in MANIFESTS
    return True


@dataclass
class Keys:
    """Keys for one run; each module's files are listed and digested once."""

    project: LintProject
    digests: FileDigests
    versions: str
    _listed: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def key(self, check: str, addon: Addon) -> str:
        series = self.project.series_of(addon) or ""
        if check == "static":
            return cache_key(check, addon.name, self._project_digest, series, self.versions)
        config = self.project.config_for(addon).fingerprint
        return cache_key(check, addon.name, self._check_digest(check, addon), series, self.versions, config)

    def _check_digest(self, check: str, addon: Addon) -> str:
        digest = hashlib.sha256()
        for rel, file_digest in self._module_files(addon):
            reads = _reads_content(check, rel)
            if reads is not None:
                digest.update(f"{rel}\0{file_digest if reads else '-'}\0".encode())
        return digest.hexdigest()

    def _module_files(self, addon: Addon) -> list[tuple[str, str]]:
        if addon.name not in self._listed:
            self._listed[addon.name] = [
                (rel, self.digests.file_digest(path, st)) for rel, path, st in _walk(str(addon.path))
            ]
        return self._listed[addon.name]

    @functools.cached_property
    def _project_digest(self) -> str:
        """Every own module (name, folder, files) and the read-only modules they depend on."""
        addon_set = self.project.addon_set
        own = [a for a in addon_set.addons.values() if not a.readonly]
        used = (addon_set.addons[n] for n in addon_set.closure([a.name for a in own]) if n in addon_set)
        readonly = [a for a in used if a.readonly]
        digest = hashlib.sha256(repr(sorted(str(f) for f in addon_set.findings)).encode())
        for addon in sorted([*own, *readonly], key=lambda a: (a.readonly, a.name)):
            digest.update(f"{addon.name}\0{addon.path}\0{addon.readonly}\0".encode())
            digest.update(self._check_digest("static", addon).encode())
        return digest.hexdigest()

    def static_facts_key(self, addon: Addon) -> str:
        """A second key for the static checks of ``addon``, tried when the first (every file of
        the project) missed: the contents of every file of its dependency closure (with the
        auto-installed modules), and of the rest of the project only what the static checks read
        of it: the index's facts of each file (with their lines), the manifests, names and folders.
        So an edit that changes no fact of the index (a comment, a method body) re-runs the static
        checks only of the edited module and of those that depend on it. Loads the index."""
        digest = hashlib.sha256(self._project_facts.encode())
        addon_set = self.project.addon_set
        for name in sorted(addon_set.closure([addon.name, "base"], auto_install=True)):
            if name in addon_set:
                digest.update(f"{name}\0{self._check_digest('static', addon_set.addons[name])}\0".encode())
        series = self.project.series_of(addon) or ""
        return cache_key("static-facts", addon.name, digest.hexdigest(), series, self.versions)

    @functools.cached_property
    def _project_facts(self) -> str:
        addon_set = self.project.addon_set
        digest = hashlib.sha256(repr(sorted(str(f) for f in addon_set.findings)).encode())
        for addon in sorted(addon_set.addons.values(), key=lambda a: (a.readonly, a.name)):
            manifests = [(rel, d) for rel, d in self._module_files(addon) if rel in MANIFESTS]
            digest.update(f"{addon.name}\0{addon.path}\0{addon.readonly}\0{manifests}\0".encode())
        tables = self.project.index().tables
        for module, files in sorted(tables.files_by_module.items()):
            digest.update(f"{module}\0".encode())
            for data in files:  # frozen dataclasses of tuples: their repr is stable across runs
                digest.update(repr(data).encode())
        return digest.hexdigest()


def _walk(folder: str, prefix: str = "") -> Iterator[tuple[str, str, os.stat_result]]:
    """(relative posix path, path, stat) of every file under ``folder``, sorted, skipping what
    ``_cache`` skips (caches, hidden folders, compiled files); one ``scandir`` per folder."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):  # like os.walk: never into a linked folder
                if entry.name not in SKIPPED_DIRS and not entry.name.startswith("."):
                    yield from _walk(entry.path, f"{prefix}{entry.name}/")
            elif entry.is_file() and not entry.name.endswith((".pyc", ".pyo")):
                yield f"{prefix}{entry.name}", entry.path, entry.stat()
        except OSError:
            continue
