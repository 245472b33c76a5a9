"""Paths an agent write always asks for (except in ``yolo``), even in ``auto-edit``.

They steer what runs later: git's config and hooks (``core.fsmonitor``, a ``post-commit`` hook run
by ``--auto-commit``), the project file (mode, endpoints, addons path), linter and pre-commit
configurations (plugins, init hooks), the instructions the agent itself reads, and our own
journal and temporary file names (a start replays a journal).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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
        "ruff.toml",
        ".ruff.toml",
        ".gitattributes",
        ".gitmodules",
        "agents.md",
        "assista.md",
    }
)
PREFIXES = (".pylintrc",)  # .pylintrc, .pylintrc-mandatory, ...
_SEPARATORS = re.compile(r"[\\/]+")

Resolver = Callable[[str], str | None]


def is_protected(path: str) -> bool:
    """Whether the path, as written, names a protected file or anything inside ``.git``."""
    parts = [p.strip().lower() for p in _SEPARATORS.split(path) if p.strip() not in ("", ".")]
    if any(part in FOLDERS for part in parts):
        return True
    name = parts[-1] if parts else ""
    # Our journals and staged files: the next start would replay or rename them (the write tools
    # refuse them too).
    return name in NAMES or name.startswith(PREFIXES) or reserved_name(name)


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
        return is_protected(resolved.rel)
