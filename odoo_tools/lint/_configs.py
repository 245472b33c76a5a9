"""Which linter configuration applies to an addons root: the project's own files win over ours.

Looked up from the addons root upwards, stopping at the repository top (the first folder with a
``.git``) or the file-system root; the closest file wins:
- pylint: ``.pylintrc`` (mandatory + optional) and ``.pylintrc-mandatory`` (the failing set);
- flake8: ``.flake8``, or ``setup.cfg`` / ``tox.ini`` with a ``[flake8]`` section;
- oca-odoo-pre-commit-hooks: ``.oca_hooks.cfg``.
Our defaults (adapted from OCA's templates) live in ``odoo_tools/lint/config/``.
"""

from __future__ import annotations

import configparser
import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent / "config"
DEFAULT_PYLINTRC = CONFIG_DIR / "pylintrc"
DEFAULT_PYLINTRC_MANDATORY = CONFIG_DIR / "pylintrc-mandatory"
DEFAULT_FLAKE8 = CONFIG_DIR / "flake8.cfg"


@dataclass(frozen=True)
class LintConfig:
    """The configuration files one addons root is checked with."""

    pylintrc: Path  # run with this one (it holds mandatory and optional messages)
    pylintrc_mandatory: Path  # its enabled messages are the failing ones
    pylint_is_default: bool  # ours: valid-odoo-versions comes from the project's series
    flake8_config: Path
    oca_hooks_config: Path | None

    @functools.cached_property
    def mandatory_messages(self) -> frozenset[str] | None:
        """Symbols that fail the check, or None when the file does not list them explicitly."""
        return enabled_messages(self.pylintrc_mandatory)

    @functools.cached_property
    def fingerprint(self) -> str:
        """Changes whenever any configuration file's content changes (part of the cache key);
        read once per ``LintConfig`` (one per root and run), not once per module and check."""
        digest = hashlib.sha256()
        for path in (self.pylintrc, self.pylintrc_mandatory, self.flake8_config, self.oca_hooks_config):
            digest.update(str(path).encode())
            if path is not None and path.is_file():
                digest.update(path.read_bytes())
        return digest.hexdigest()


def config_for_root(root: Path) -> LintConfig:
    """The configuration for the addons root ``root``: project files first, then our defaults."""
    folders = _search_folders(root)
    optional = _first_file(folders, ".pylintrc")
    mandatory = _first_file(folders, ".pylintrc-mandatory")
    own_pylint = optional is not None or mandatory is not None
    return LintConfig(
        pylintrc=optional or mandatory or DEFAULT_PYLINTRC,
        pylintrc_mandatory=mandatory or optional or DEFAULT_PYLINTRC_MANDATORY,
        pylint_is_default=not own_pylint,
        flake8_config=_flake8_file(folders) or DEFAULT_FLAKE8,
        oca_hooks_config=_first_file(folders, ".oca_hooks.cfg"),
    )


def enabled_messages(rcfile: Path) -> frozenset[str] | None:
    """The ``enable=`` list of an rc file that starts from ``disable=all``; else None."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(rcfile, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    section = next((s for s in parser.sections() if s.lower() == "messages control"), None)
    if section is None:
        return None
    disable = _split_list(parser.get(section, "disable", fallback=""))
    if "all" not in disable:
        return None
    return frozenset(_split_list(parser.get(section, "enable", fallback="")))


def _split_list(raw: str) -> list[str]:
    items: list[str] = []
    for line in raw.splitlines():
        line = line.split("#", 1)[0]
        items.extend(part.strip() for part in line.split(","))
    return [item for item in items if item]


def _search_folders(root: Path) -> list[Path]:
    folders = []
    current = root.resolve()
    while True:
        folders.append(current)
        if (current / ".git").exists() or current.parent == current:
            return folders
        current = current.parent


def _first_file(folders: list[Path], name: str) -> Path | None:
    return next((folder / name for folder in folders if (folder / name).is_file()), None)


def _flake8_file(folders: list[Path]) -> Path | None:
    for folder in folders:
        if (folder / ".flake8").is_file():
            return folder / ".flake8"
        for name in ("setup.cfg", "tox.ini"):
            candidate = folder / name
            if candidate.is_file() and _has_flake8_section(candidate):
                return candidate
    return None


def _has_flake8_section(path: Path) -> bool:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return False
    return parser.has_section("flake8")
