"""Project linter configurations, minus everything that would run code from the project.

A check that says it only reads never executes the repository's code: pylint's ``init-hook``,
``load-plugins`` (other than pylint_odoo) and the options that make astroid import C extensions,
and flake8's ``[flake8:local-plugins]``, are dropped. The cleaned copy lives in a private
temporary folder, named by content; ``ignored`` says what was dropped so the report can tell.
"""

from __future__ import annotations

import configparser
import functools
import hashlib
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.storage import atomic_write_text

PYLINT_ALLOWED_PLUGINS = frozenset({"pylint_odoo"})
PYLINT_UNSAFE = frozenset(
    {"init-hook", "extension-pkg-allow-list", "extension-pkg-whitelist", "unsafe-load-any-extension"}
)


@dataclass(frozen=True)
class SafeConfig:
    path: Path  # what the linter is given
    ignored: tuple[str, ...] = ()  # e.g. "init-hook in /repo/.pylintrc"


@functools.cache
def private_dir() -> Path:
    """A folder only this user can write: cleaned configs, and the linters' working directory
    (so nothing of the project is importable from the current folder)."""
    folder = Path(tempfile.gettempdir()) / f"assista-odoo-lint-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != (os.getuid() if hasattr(os, "getuid") else 0):
        folder = Path(tempfile.mkdtemp(prefix="assista-odoo-lint-"))
    return folder


def safe_pylintrc(rcfile: Path) -> SafeConfig:
    parser = _read(rcfile)
    if parser is None:
        return SafeConfig(rcfile)
    ignored = []
    for section in parser.sections():
        for option in list(parser.options(section)):
            if option in PYLINT_UNSAFE:
                parser.remove_option(section, option)
                ignored.append(f"{option} in {rcfile}")
            elif option == "load-plugins":
                plugins = [p.strip() for p in parser.get(section, option).replace("\n", ",").split(",")]
                kept = [p for p in plugins if p in PYLINT_ALLOWED_PLUGINS]
                dropped = [p for p in plugins if p and p not in PYLINT_ALLOWED_PLUGINS]
                if dropped:
                    parser.set(section, option, ",".join(kept))
                    ignored.append(f"load-plugins {', '.join(dropped)} in {rcfile}")
    if not ignored:
        return SafeConfig(rcfile)
    return SafeConfig(_write(parser, rcfile.name), tuple(ignored))


def safe_flake8(config: Path) -> SafeConfig:
    """Only the ``[flake8]`` section is kept: local plugins live in their own sections."""
    parser = _read(config)
    if parser is None or not parser.has_section("flake8"):
        return SafeConfig(config)
    dropped = [s for s in parser.sections() if s != "flake8" and s.startswith("flake8:")]
    ignored = [f"[{s}] in {config}" for s in dropped]
    clean = configparser.ConfigParser(interpolation=None, strict=False)
    clean.add_section("flake8")
    for option, value in parser.items("flake8"):
        clean.set("flake8", option, value)
    if not ignored and config.name == ".flake8" and len(parser.sections()) == 1:
        return SafeConfig(config)
    return SafeConfig(_write(clean, "flake8.cfg"), tuple(ignored))


def _read(path: Path) -> configparser.ConfigParser | None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    return parser


def _write(parser: configparser.ConfigParser, name: str) -> Path:
    buffer = io.StringIO()
    parser.write(buffer)
    text = buffer.getvalue()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    target = private_dir() / f"{digest}-{name.lstrip('.')}"
    if not target.is_file():
        atomic_write_text(target, text)
    return target
