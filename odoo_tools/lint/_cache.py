"""Findings cached by content: one entry per (module, check), under ``<cache_dir>/lint/``.

The key covers the module's files (names and contents), the checker's versions, the
configuration files and the Odoo series, so an untouched module is answered from disk and a
touched one is re-checked. File digests are memoized on (mtime_ns, size) within a process, so a
long-lived server does not re-read unchanged files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from odoo_tools.findings import Finding

SCHEMA = "lint-cache-1"
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})
_FINDINGS = TypeAdapter(list[Finding])
_TOOLS: tuple[str, ...] = ("pylint", "pylint-odoo", "astroid", "flake8", "pycodestyle", "pyflakes")
_TOOLS += ("mccabe", "oca-odoo-pre-commit-hooks", "assista-odoo")


def tool_versions() -> str:
    versions = []
    for name in _TOOLS:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=none")
    return ";".join(versions)


class FileDigests:
    """sha256 of files, re-read only when (mtime_ns, size) changed."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    def module_digest(self, folder: Path) -> str:
        digest = hashlib.sha256()
        for path in _files(folder):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(self.file_digest(path).encode())
        return digest.hexdigest()

    def file_digest(self, path: Path) -> str:
        try:
            stat = path.stat()
        except OSError:
            return "unreadable"
        key = str(path)
        with self._lock:
            known = self._known.get(key)
        if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        try:
            value = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return "unreadable"
        with self._lock:
            self._known[key] = (stat.st_mtime_ns, stat.st_size, value)
        return value


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


class LintCache:
    """A directory of JSON files; ``directory=None`` turns caching off."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory / "lint" if directory is not None else None
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> list[Finding] | None:
        if self.directory is None:
            return None
        try:
            raw = (self.directory / key[:2] / f"{key}.json").read_bytes()
            findings = _FINDINGS.validate_json(raw)
        except (OSError, ValidationError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        return findings

    def put(self, key: str, findings: Iterable[Finding]) -> None:
        if self.directory is None:
            return
        folder = self.directory / key[:2]
        payload = json.dumps([f.model_dump(exclude_defaults=True) for f in findings])
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(tmp, folder / f"{key}.json")
