"""A project's linter configuration read exactly the way the linter itself would read it.

``_safe_config`` decides what to keep from these readings; the linter is then given a file we
wrote, never the project's own. Whatever we cannot read the way the linter would (an encoding,
a syntax, a file outside the repository) raises ``Unreadable``, and the file is not used at all:
a reading that differs from the linter's could hide an option the linter would still obey.
"""

from __future__ import annotations

import configparser
import io
import os
import stat
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MAX_CONFIG_BYTES = 1 << 20  # a real configuration is a few KB
Pairs = list[tuple[str, str]]  # (option, value) in the order the linter applies them


class Unreadable(Exception):
    """The file cannot be read the way its linter reads it; the message says why."""


def config_bytes(path: Path, top: Path | None) -> bytes:
    """The file's bytes: a regular file of at most ``MAX_CONFIG_BYTES`` inside ``top`` (the
    repository) when given, links resolved first (a link may not lead out of the repository)."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise Unreadable(f"cannot be opened ({type(exc).__name__})") from exc
    if top is not None and not real.is_relative_to(top.resolve()):
        raise Unreadable(f"lies outside the repository ({real})")
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise Unreadable(f"cannot be opened ({type(exc).__name__})") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("is not a regular file")
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise Unreadable(f"is larger than {MAX_CONFIG_BYTES} bytes")
    return data


def pylint_pairs(path: Path, top: Path | None = None) -> Pairs:
    """pylint's reading (``pylint.config.config_file_parser``): ``.toml`` through tomllib (the
    ``tool.pylint`` tables), anything else through ``ConfigParser`` with ``#``/``;`` inline
    comments, ``%`` interpolation, the BOM stripped (utf_8_sig) and ``[DEFAULT]`` inherited by
    every section; in ``setup.cfg``/``tox.ini`` only the ``pylint*`` sections count."""
    data = config_bytes(path, top)
    if path.suffix == ".toml":
        return _pylint_toml(data)
    parser = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    try:
        parser.read_file(_text(data, "utf_8_sig"))
        with_sections = "setup.cfg" in path.parts or "tox.ini" in path.parts
        return [
            (option, value)
            for section in parser.sections()
            if not with_sections or section.startswith("pylint")
            for option, value in parser[section].items()
        ]
    except (configparser.Error, UnicodeDecodeError, ValueError) as exc:
        raise Unreadable(f"does not parse as pylint reads it ({type(exc).__name__})") from exc


def _text(data: bytes, encoding: str) -> io.TextIOWrapper:
    """The file as ``open(path, encoding=...)`` gives it to the linter (universal newlines: a
    lone carriage return ends a line there too)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=encoding)


def _pylint_toml(data: bytes) -> Pairs:
    try:
        content = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise Unreadable(f"is not valid TOML ({type(exc).__name__})") from exc
    tool = content.get("tool")
    tables = tool.get("pylint") if isinstance(tool, dict) else None
    if not isinstance(tables, dict):
        return []
    pairs: Pairs = []
    for option, values in tables.items():
        if isinstance(values, dict):
            pairs += [(key, _rich(value)) for key, value in values.items()]
        else:
            pairs.append((option, _rich(values)))
    return pairs


def _rich(value: Any) -> str:
    """pylint's ``_parse_rich_type_value``: TOML values as the strings pylint passes on."""
    if isinstance(value, (list, tuple)):
        return ",".join(_rich(item) for item in value)
    if isinstance(value, dict):
        return ",".join(f"{key}:{item}" for key, item in value.items())
    return str(value)


def flake8_sections(path: Path, top: Path | None = None) -> tuple[Pairs, list[str]]:
    """flake8's reading (``flake8.options.config``): ``RawConfigParser`` (strict, no inline
    comments, no interpolation) in UTF-8 without BOM stripping. The ``[flake8]`` section with
    what ``[DEFAULT]`` gives it, and the names of all sections (``[flake8:local-plugins]`` is
    never used: it names code to import)."""
    data = config_bytes(path, top)
    parser = configparser.RawConfigParser()
    try:
        parser.read_file(_text(data, "UTF-8"))
        pairs = list(parser["flake8"].items()) if parser.has_section("flake8") else []
        return pairs, parser.sections()
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise Unreadable(f"does not parse as flake8 reads it ({type(exc).__name__})") from exc


OCA_HOOKS_SECTION = "MESSAGES_CONTROL"
OCA_HOOKS_KEYS = ("enable", "disable", "xml_attributes_order")


def oca_hooks_pairs(path: Path, top: Path | None = None) -> Pairs:
    """The OCA hooks' reading (``oca_pre_commit_hooks.global_parser``): ``ConfigParser`` with ``%``
    interpolation in UTF-8; only three keys of ``[MESSAGES_CONTROL]`` are ever looked at."""
    data = config_bytes(path, top)
    parser = configparser.ConfigParser()
    try:
        parser.read_file(_text(data, "UTF-8"))
        if not parser.has_section(OCA_HOOKS_SECTION):
            return []
        section = parser[OCA_HOOKS_SECTION]
        found = [(key, section.get(key)) for key in OCA_HOOKS_KEYS]
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise Unreadable(f"does not parse as the OCA hooks read it ({type(exc).__name__})") from exc
    return [(key, value) for key, value in found if value]


def ruff_table(path: Path, top: Path | None = None) -> dict[str, Any]:
    """ruff's settings in the file: the whole file, or ``[tool.ruff]`` of a ``pyproject.toml``."""
    data = config_bytes(path, top)
    try:
        content = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise Unreadable(f"is not valid TOML ({type(exc).__name__})") from exc
    if path.name == "pyproject.toml":
        tool = content.get("tool")
        table = tool.get("ruff", {}) if isinstance(tool, dict) else {}
        return table if isinstance(table, dict) else {}
    return content
