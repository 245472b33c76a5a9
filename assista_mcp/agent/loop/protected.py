"""Paths an agent write always asks for (except in ``yolo``), even in ``auto-edit``.

They steer what runs later: git's config and hooks (``core.fsmonitor``, a ``post-commit`` hook run
by ``--auto-commit``), the project file (mode, endpoints, addons path), linter and pre-commit
configurations (plugins, init hooks), the instructions the agent itself reads, our own
journal and temporary file names (a start replays a journal), and lint baselines (a finding
recorded there no longer fails ``check --baseline``): any ``*baseline*.json``, and any existing
file that holds a baseline, whatever ``--baseline`` name CI gives it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from odoo_tools.errors import AssistaError
from odoo_tools.storage import reserved_name
from odoo_tools.workspace import Workspace

FOLDERS = frozenset({".git"})
NAMES = frozenset(
    {
        "assista-odoo.toml",
        "pyproject.toml",
        "pylintrc",
        ".flake8",
        "setup.cfg",
        "tox.ini",
        ".pre-commit-config.yaml",
        ".pre-commit-config.yml",
        ".oca_hooks.cfg",
        "ruff.toml",
        ".ruff.toml",
        ".gitattributes",
        ".gitmodules",
        "agents.md",
        "assista.md",
    }
)
PREFIXES = (".pylintrc",)  # .pylintrc, .pylintrc-mandatory, ...
BASELINE_WORD, BASELINE_SUFFIX = "baseline", ".json"
_BASELINE_HEAD = 64 * 1024  # a baseline names its fingerprints near the top (written by check)
_SEPARATORS = re.compile(r"[\\/]+")


def is_protected(path: str) -> bool:
    """Whether the path, as written, names a protected file or anything inside ``.git``."""
    parts = [p.strip().lower() for p in _SEPARATORS.split(path) if p.strip() not in ("", ".")]
    if any(part in FOLDERS for part in parts):
        return True
    name = parts[-1] if parts else ""
    # Our journals and staged files: the next start would replay or rename them (the write tools
    # refuse them too).
    baseline = BASELINE_WORD in name and name.endswith(BASELINE_SUFFIX)
    return name in NAMES or name.startswith(PREFIXES) or reserved_name(name) or baseline


def holds_baseline(path: Path) -> bool:
    """An existing regular file whose content is a lint baseline (a JSON object of fingerprints)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False  # a folder, a FIFO: never read
        head = os.read(fd, _BASELINE_HEAD)
    except OSError:
        return False
    finally:
        os.close(fd)
    return head.lstrip().startswith(b"{") and b'"fingerprints"' in head


class ProtectedPaths:
    """Checks paths as given and, with a workspace, where they really lead (after symlinks)."""

    def __init__(self, workspace: Workspace | None = None) -> None:
        self.workspace = workspace

    def among(self, paths: Iterable[str]) -> list[str]:
        return [p for p in dict.fromkeys(paths) if is_protected(p) or self._leads_to_protected(p)]

    def _leads_to_protected(self, path: str) -> bool:
        if self.workspace is None:
            return False
        try:
            resolved = self.workspace.resolve(path, purpose="write", must_exist=False)
        except AssistaError:
            return False  # the tool refuses this path itself
        if is_protected(resolved.rel) or holds_baseline(resolved.path):
            return True
        from odoo_tools.lint import project_linter_files  # reads the pre-commit: only when asked

        try:
            return resolved.path.resolve() in project_linter_files(resolved.root.path)
        except (OSError, ValueError):
            return False
