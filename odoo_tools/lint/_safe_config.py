"""Project linter configurations, minus everything that would run code from the project.

A check that says it only reads never executes the repository's code. A project's file is read
the way its linter reads it (``_rc_read``); what could run code or write outside our folders is
dropped (pylint's ``init-hook``, ``evaluation`` (an expression pylint evaluates), plugins other
than pylint_odoo, the options that make astroid import C extensions, ``output``; flake8's local
plugins; ruff's ``extend`` out of the repository) and the linter is given a copy we wrote, in a
private folder, named by content. A file we cannot read exactly as the linter would is not used
at all. ``ignored`` says what was dropped or refused so the report can tell.
"""

from __future__ import annotations

import configparser
import functools
import hashlib
import io
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odoo_tools.lint._rc_read import (
    OCA_HOOKS_SECTION,
    Pairs,
    Unreadable,
    flake8_sections,
    oca_hooks_pairs,
    pylint_pairs,
    ruff_table,
)
from odoo_tools.storage import atomic_write_text, user_private_folder

PYLINT_ALLOWED_PLUGINS = frozenset({"pylint_odoo"})
# Options that run or import code, or write a file; argparse also takes any unambiguous prefix
# of a name ("--init-h"), so a name that could abbreviate one of these is dropped too.
PYLINT_UNSAFE = (
    "init-hook",
    "load-plugins",
    "evaluation",
    "output",
    "extension-pkg-allow-list",
    "extension-pkg-whitelist",
    "unsafe-load-any-extension",
    "from-stdin",
)
# Options our command line sets anyway (the output format may name a reporter class to import).
PYLINT_OURS = ("output-format", "jobs", "persistent", "rcfile", "score", "exit-zero")
PYLINT_OPTION_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
FLAKE8_OURS = frozenset({"format", "jobs", "tee", "output-file", "append-config", "config"})
RUFF_OURS = ("cache-dir", "fix", "fix-only", "unsafe-fixes", "show-fixes", "output-format")
RUFF_EXTEND_DEPTH = 4


@dataclass(frozen=True)
class SafeConfig:
    path: Path | None  # what the linter is given; None: the project's file is not used at all
    ignored: tuple[str, ...] = ()  # e.g. "init-hook in /repo/.pylintrc"


def refused(path: Path, why: Unreadable) -> SafeConfig:
    return SafeConfig(None, (f"{path} not used: it {why}; our default configuration applies instead",))


@functools.cache
def private_dir() -> Path:
    """A folder only this user can write: cleaned configs, and the linters' working directory
    (so nothing of the project is importable from the current folder). It lives under the user's
    own runtime or cache folder (``user_private_folder``), never in the shared temp folder."""
    try:
        return user_private_folder("lint")
    except OSError:  # no usable home folder at all: a fresh folder of ours (0700, unique name)
        return Path(tempfile.mkdtemp(prefix="assista-odoo-lint-"))


def safe_pylintrc(rcfile: Path, top: Path | None = None) -> SafeConfig:
    try:
        pairs = pylint_pairs(rcfile, top)
    except Unreadable as exc:
        return refused(rcfile, exc)
    kept: Pairs = []
    ignored: list[str] = []
    for option, value in pairs:
        if not PYLINT_OPTION_NAME.fullmatch(option):
            ignored.append(f"option {option!r} in {rcfile} (not a pylint option name)")
        elif option == "load-plugins":
            plugins = [p.strip() for p in value.split(",") if p.strip()]
            dropped = [p for p in plugins if p not in PYLINT_ALLOWED_PLUGINS]
            if dropped:
                ignored.append(f"load-plugins {', '.join(dropped)} in {rcfile}")
            kept.append((option, ",".join(p for p in plugins if p in PYLINT_ALLOWED_PLUGINS)))
        elif any(name.startswith(option) for name in PYLINT_UNSAFE):
            ignored.append(f"{option} in {rcfile}")
        elif not any(name.startswith(option) for name in PYLINT_OURS):
            kept.append((option, value))
    return SafeConfig(_write(_pylint_toml(kept), "pylintrc.toml"), tuple(ignored))


def pylint_options(rcfile: Path, top: Path | None = None) -> Pairs | None:
    """The (option, value) pairs pylint reads from ``rcfile``, or None if it is not used."""
    try:
        return pylint_pairs(rcfile, top)
    except Unreadable:
        return None


def _pylint_toml(pairs: Pairs) -> str:
    """``pairs`` as a pylint TOML file: one ``tool.pylint`` table per run of distinct names, so
    a repeated option (two ``disable=`` in two sections) reaches pylint twice, in order."""
    tables: list[list[str]] = [[]]
    seen: set[str] = set()
    for option, value in pairs:
        if option in seen:
            tables.append([])
            seen = set()
        seen.add(option)
        tables[-1].append(f"{_toml_string(option)} = {_toml_string(value)}")
    return "".join(
        f"[tool.pylint.t{n}]\n" + "".join(f"{line}\n" for line in lines) for n, lines in enumerate(tables)
    )


def _toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but TOML also forbids a raw DEL."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def safe_flake8(config: Path, top: Path | None = None) -> SafeConfig:
    """Only the ``[flake8]`` section is kept: local plugins live in their own sections."""
    try:
        pairs, sections = flake8_sections(config, top)
    except Unreadable as exc:
        return refused(config, exc)
    ignored = [f"[{s}] in {config}" for s in sections if s != "flake8" and s.startswith("flake8:")]
    clean = configparser.RawConfigParser()
    clean.add_section("flake8")
    for option, value in pairs:
        if option.replace("_", "-") not in FLAKE8_OURS:
            clean.set("flake8", option, value)
    buffer = io.StringIO()
    clean.write(buffer)
    return SafeConfig(_write(buffer.getvalue(), "flake8.cfg"), tuple(ignored))


def safe_oca_hooks(config: Path, top: Path | None = None) -> SafeConfig:
    """The message selection the OCA hooks would read, as a copy of ours (``%`` escaped again: the
    hooks interpolate what they read)."""
    try:
        pairs = oca_hooks_pairs(config, top)
    except Unreadable as exc:
        return refused(config, exc)
    clean = configparser.RawConfigParser()
    clean.add_section(OCA_HOOKS_SECTION)
    for option, value in pairs:
        clean.set(OCA_HOOKS_SECTION, option, value.replace("%", "%%"))
    buffer = io.StringIO()
    clean.write(buffer)
    return SafeConfig(_write(buffer.getvalue(), "oca_hooks.cfg"))


def safe_ruff(config: Path, top: Path | None = None) -> SafeConfig:
    """The settings ruff would read (an ``extend``ed file merged in, if it lies in the
    repository), minus fixing and caching, as one file of ours."""
    try:
        settings = _ruff_settings(config, top, RUFF_EXTEND_DEPTH)
    except Unreadable as exc:
        return refused(config, exc)
    import tomlkit  # here: only a repository with its own ruff configuration needs it

    return SafeConfig(_write(tomlkit.dumps(settings), "ruff.toml"))


def _ruff_settings(config: Path, top: Path | None, depth: int) -> dict[str, Any]:
    table = {k: v for k, v in ruff_table(config, top).items() if k not in RUFF_OURS}
    extend = table.pop("extend", None)
    if extend is None:
        return table
    if not isinstance(extend, str) or "$" in extend or extend.startswith("~") or depth <= 0:
        raise Unreadable(f"extends {extend!r}, which we do not follow")
    try:
        base = _ruff_settings(config.parent / extend, top, depth - 1)
    except Unreadable as exc:
        raise Unreadable(f"extends {extend!r}, which {exc}") from exc
    return _merged(base, table)


def _merged(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        old = merged.get(key)
        merged[key] = _merged(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return merged


def _write(text: str, name: str) -> Path:
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    target = private_dir() / f"{digest}-{name.lstrip('.')}"
    if not target.is_file():
        atomic_write_text(target, text)
    return target
