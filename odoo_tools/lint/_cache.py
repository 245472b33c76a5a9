"""Findings cached by content: one entry per (module, check), under ``<cache_dir>/lint/``.

The key covers the module's files (names and contents), the checker's versions, the
configuration files, the Odoo series and our own checking code (``code_digest``: every file of
the ``odoo_tools`` package, so a fixed check never answers from a stale entry and nobody has to
remember to bump a version), so an untouched module is answered from disk and a touched one is
re-checked. File digests come from ``odoo_tools.storage.FileDigests`` (kept per
(mtime_ns, size), bounded), so a long-lived server does not re-read unchanged files.

An answer decides what the CI gate reports: one planted by another account (a shared
``XDG_CACHE_HOME``, a folder left open under umask 0) would hide a module's findings. So the
folder must be this user's alone (0700, not a link, checked on every use, else nothing is kept
nor read, as for the index and migrate's readings), and an answer is read only when it is this
user's and 0600, and written so.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from odoo_tools.findings import Finding
from odoo_tools.lint._common import INCOMPLETE_RUN
from odoo_tools.series import PACK_SUFFIXES, pack_folders
from odoo_tools.storage import private_folder, read_private, write_private

SCHEMA = "lint-cache-1"
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})
_FINDINGS = TypeAdapter(list[Finding])
_TOOLS: tuple[str, ...] = ("pylint", "pylint-odoo", "astroid", "flake8", "pycodestyle", "pyflakes")
_TOOLS += ("mccabe", "oca-odoo-pre-commit-hooks", "ruff", "assista-odoo")

# Whatever produces findings lives in this package (lint, addons, index, findings...): its files
# are part of every key.
CODE_ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def code_digest(root: Path = CODE_ROOT) -> str:
    """One digest over the names and contents of every file of our checking code (``.py`` and
    data such as bundled rc files and core-module lists); read once per process (~1 MB)."""
    digest = hashlib.sha256()
    for path in _files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


@functools.cache
def tool_versions() -> str:
    """The pinned linters' versions and our code's digest: a change to either re-checks."""
    versions = [f"code={code_digest()}", f"packs={extra_packs_stamp()}"]
    for name in _TOOLS:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=none")
    return ";".join(versions)


def extra_packs_stamp() -> str:
    """The series packs of the ``ASSISTA_SERIES_PACKS`` folders (the bundled ones are part of the
    code digest): names, sizes and times, so another pack re-checks."""
    stamps = []
    for folder in pack_folders():
        for path in sorted(p for suffix in PACK_SUFFIXES for p in folder.glob(f"*{suffix}")):
            with contextlib.suppress(OSError):
                stat = path.stat()
                stamps.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return ",".join(stamps)


def _files(folder: Path) -> list[Path]:
    found: list[Path] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        found.extend(Path(current) / name for name in sorted(files) if not name.endswith((".pyc", ".pyo")))
    return found


def cache_key(*parts: str) -> str:
    digest = hashlib.sha256(SCHEMA.encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


# Answers kept per key prefix (256 prefixes: ~32k answers). Every edit writes new answers (the
# static checks' for every module), so without a bound the cache would only grow.
PER_FOLDER = 128


class LintCache:
    """A directory of JSON files; ``directory=None`` turns caching off."""

    def __init__(self, directory: Path | None, max_per_folder: int = PER_FOLDER) -> None:
        self.directory = directory / "lint" if directory is not None else None
        self.max_per_folder = max_per_folder
        self.hits = 0  # answers read from disk

    def folder(self, key: str) -> Path | None:
        """The private folder of ``key``'s answers; None when the cache is off or a folder on
        the way is a link, another account's or not a folder."""
        if self.directory is None:
            return None
        try:
            lint = private_folder(private_folder(self.directory.parent) / self.directory.name)
            return private_folder(lint / key[:2])
        except OSError:
            return None

    def get(self, key: str) -> list[Finding] | None:
        folder = self.folder(key)
        raw = read_private(folder / f"{key}.json") if folder is not None else None
        if raw is None:
            return None
        try:
            findings = _FINDINGS.validate_json(raw)
        except (ValidationError, ValueError, RecursionError):
            return None
        self.hits += 1
        return findings

    def put(self, key: str, findings: Iterable[Finding]) -> None:
        """Keep ``findings`` under ``key``, unless the linter did not complete (see ``INCOMPLETE_RUN``)."""
        findings = list(findings)
        folder = self.folder(key)
        if folder is None or any(f.code in INCOMPLETE_RUN for f in findings):
            return
        payload = json.dumps([f.model_dump(exclude_defaults=True) for f in findings])
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
            write_private(folder / f"{key}.json", payload.encode())
            _prune(folder, self.max_per_folder)


def _prune(folder: Path, keep: int) -> None:
    """Drop the oldest written answers of ``folder`` beyond ``keep`` (one is recomputed if needed)."""
    entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
    if len(entries) <= keep:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for entry in entries[: len(entries) - keep]:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
