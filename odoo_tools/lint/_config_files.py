"""Where a project's linter files are: the folders looked in (the addons root and those above it, up
to the repository top, never one another account may write in) and which file of each linter the
closest folder holds (``_configs`` reads them into a ``LintConfig``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from odoo_tools.lint._precommit import PreCommit
from odoo_tools.lint._rc_read import Unreadable, config_bytes, flake8_sections


def pylintrcs(folders: list[Path], pre_commit: PreCommit) -> tuple[Path | None, Path | None]:
    """(optional rc, mandatory rc): the pre-commit's --rcfile arguments first, else the files."""
    listed = [p for p in pre_commit.pylint_rcfiles if p.is_file()]
    if listed:
        mandatory = next((p for p in listed if "mandatory" in p.name), None)
        optional = next((p for p in listed if p != mandatory), None)
        return optional, mandatory
    return first_file(folders, ".pylintrc"), first_file(folders, ".pylintrc-mandatory")


def ruff_file(folders: list[Path]) -> Path | None:
    for folder in folders:
        for name in (".ruff.toml", "ruff.toml"):
            if (folder / name).is_file():
                return folder / name
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and mentions(pyproject, b"[tool.ruff"):
            return pyproject
    return None


def has_oca_setup(folders: list[Path]) -> bool:
    """OCA's template: a ``.pylintrc-mandatory``, or a pre-commit running OCA's linters."""
    if first_file(folders, ".pylintrc-mandatory") is not None:
        return True
    pre_commit = first_file(folders, ".pre-commit-config.yaml")
    if pre_commit is None:
        return False
    return mentions(pre_commit, b"oca/pylint-odoo", b"oca/odoo-pre-commit-hooks", unreadable=False)


def mentions(path: Path, *texts: bytes, unreadable: bool = True) -> bool:
    """Whether the project file holds one of ``texts`` (case-insensitive); ``unreadable`` for a
    file too large or not regular, never read whole (``_safe_config`` then refuses it, saying so)."""
    try:
        data = config_bytes(path, None).lower()
    except Unreadable:
        return unreadable
    return any(text.lower() in data for text in texts)


def search_folders(root: Path) -> list[Path]:
    """``root`` and the folders above it, up to the repository top; never a folder another account
    may have put files in (a .pylintrc in /tmp would otherwise grade a project outside git)."""
    folders = []
    current = root.resolve()
    while True:
        folders.append(current)
        if (current / ".git").exists() or current.parent == current or not _only_ours(current.parent):
            return folders
        current = current.parent


def _only_ours(folder: Path) -> bool:
    """Only this account (or root) owns ``folder`` and no other account may write in it."""
    try:
        info = folder.stat()
    except OSError:
        return False
    return info.st_uid in (os.geteuid(), 0) and not info.st_mode & stat.S_IWOTH


def first_file(folders: list[Path], name: str) -> Path | None:
    return next((folder / name for folder in folders if (folder / name).is_file()), None)


def flake8_file(folders: list[Path]) -> Path | None:
    for folder in folders:
        if (folder / ".flake8").is_file():
            return folder / ".flake8"
        for name in ("setup.cfg", "tox.ini"):
            candidate = folder / name
            if candidate.is_file() and _has_flake8_section(candidate):
                return candidate
    return None


def _has_flake8_section(path: Path) -> bool:
    try:
        return "flake8" in flake8_sections(path)[1]
    except Unreadable:
        return False
