"""The key of a template database: sha1 over the Odoo version, the demo flag, our data dir, for
every module the template should hold its name and the relative path and bytes of each of its
files, and every auto_install module of every addons root (root, name, triggers, depends): Odoo
may pull those into a database on its own, so a root that offers one is part of the key.

Core modules hold thousands of files and the key is computed on every validation, so the walk
uses plain strings and each file's digest comes from ``odoo_tools.storage.FILE_DIGESTS`` (kept per
(path, size, mtime), bounded).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from odoo_tools.storage import FILE_DIGESTS

# Files we never hash: caches that change without the module changing.
_SKIP_DIRS = {"__pycache__", ".git", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
_SKIP_SUFFIXES = (".pyc", ".pyo", ".swp", "~")


# (addons root, module name, its auto_install triggers, its depends, installable)
AutoInstall = tuple[str, str, Sequence[str], Sequence[str], bool]


def template_key(
    odoo_version: str,
    demo: bool,
    data_dir: Path,
    modules: Iterable[tuple[str, Path]],
    auto_install: Iterable[AutoInstall] = (),
) -> str:
    """sha1 over the version, demo flag, data dir, each module's name, files and bytes, and the
    auto_install modules every addons root offers."""
    digest = hashlib.sha1()
    digest.update(f"odoo={odoo_version}\ndemo={demo}\ndata_dir={data_dir}\n".encode())
    digest.update(bytes.fromhex(modules_digest(modules)))
    for root, name, triggers, depends, installable in sorted(auto_install, key=lambda a: (a[0], a[1])):
        line = f"auto_install={root}:{name}:{sorted(triggers)}:{sorted(depends)}:{installable}\n"
        digest.update(line.encode())
    return digest.hexdigest()


def modules_digest(modules: Iterable[tuple[str, Path]]) -> str:
    """sha1 over each module's name and the relative path and bytes of each of its files."""
    digest = hashlib.sha1()
    for name, folder in sorted(modules):
        digest.update(f"module={name}\n".encode())
        for rel, entry in _module_files(str(folder)):
            digest.update(rel.encode())
            digest.update(_file_digest(entry))
    return digest.hexdigest()


def _module_files(folder: str, rel: str = "") -> list[tuple[str, os.DirEntry[str]]]:
    """(path relative to the module, entry) of every file, sorted; plain strings for speed
    (core modules hold thousands of files and the key is computed on every validation)."""
    found: list[tuple[str, os.DirEntry[str]]] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return found
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in _SKIP_DIRS:
                found += _module_files(entry.path, f"{rel}{entry.name}/")
        elif not entry.name.endswith(_SKIP_SUFFIXES):
            found.append((f"{rel}{entry.name}", entry))
    return found


def _file_digest(entry: os.DirEntry[str]) -> bytes:
    """The file's digest from the process-wide bounded cache (big core modules hash once)."""
    try:
        st = entry.stat()
    except OSError:
        return b"missing"
    return FILE_DIGESTS.file_digest(entry.path, st).encode()
