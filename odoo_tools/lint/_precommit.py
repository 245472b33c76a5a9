"""What a repository's OCA-style ``.pre-commit-config.yaml`` asks of the linters we run.

Read (never run): pylint-odoo's ``--rcfile``, ``--enable``/``--disable`` and
``--valid-odoo-versions``; the OCA hooks' ``--disable``; whether Python style goes through ruff
or flake8; the top-level ``exclude`` regex, which runs on RE2 (linear time: a repository's
pattern such as ``(a*)*b`` must not hang the check). Anything else in the file is left alone.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from odoo_tools.errors import InvalidInput
from odoo_tools.files import compile_linear
from odoo_tools.lint._rc_read import Unreadable, config_bytes

PYLINT_REPOS = ("oca/pylint-odoo",)
HOOK_REPOS = ("oca/odoo-pre-commit-hooks",)
# Repository URL suffix -> the finding source whose tool version it pins.
PINNED_TOOLS = {
    "oca/pylint-odoo": "pylint",
    "astral-sh/ruff-pre-commit": "ruff",
    "pycqa/flake8": "flake8",
    "oca/odoo-pre-commit-hooks": "oca-hooks",
}
# OCA's current repository template runs oca-checks-po with --disable=po-pretty-format.
TEMPLATE_HOOKS_DISABLED = frozenset({"po-pretty-format"})


@dataclass(frozen=True)
class PreCommit:
    path: Path | None = None
    pylint_rcfiles: tuple[Path, ...] = ()
    pylint_args: tuple[str, ...] = ()  # --enable=, --disable=, --valid-odoo-versions=
    hooks_disabled: frozenset[str] = TEMPLATE_HOOKS_DISABLED
    python_linter: str | None = None  # "ruff" or "flake8" when the file runs one
    exclude: str | None = None
    pins: dict[str, str] = field(default_factory=dict)  # our source name -> the rev it pins
    problems: tuple[str, ...] = field(default=())


@functools.cache
def _no_alias_loader() -> type:
    """YAML without aliases: nine nested aliases of nine make a billion items once walked. Built
    on first use: PyYAML is imported only for a repository that has a pre-commit file (a warm
    check of one without it starts faster)."""
    import yaml

    class NoAliasLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML has no types here
        def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
            if self.check_event(yaml.AliasEvent):
                raise yaml.YAMLError("aliases are not supported in a pre-commit file read by assista-odoo")
            return super().compose_node(parent, index)

    return NoAliasLoader


def read_pre_commit(path: Path | None) -> PreCommit:
    if path is None:
        return PreCommit()
    import yaml

    try:
        data = yaml.load(config_bytes(path, None).decode("utf-8"), Loader=_no_alias_loader())
    except Unreadable as exc:
        return PreCommit(path=path, problems=(f"{path.name} not used: it {exc}",))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        return PreCommit(path=path, problems=(f"{path.name} could not be read ({type(exc).__name__})",))
    if not isinstance(data, dict):
        return PreCommit(path=path)
    top = path.parent
    rcfiles: list[Path] = []
    pylint_args: list[str] = []
    disabled: set[str] = set()
    linters: list[str] = []
    hooks_seen = False
    pins: dict[str, str] = {}
    exclude, exclude_problem = _exclude(data.get("exclude"))
    for repo in _list(data.get("repos")):
        url = str(repo.get("repo", "")).lower().rstrip("/")
        for suffix, source in PINNED_TOOLS.items():
            if url.endswith(suffix) and repo.get("rev"):
                pins[source] = str(repo["rev"])
        for hook in _list(repo.get("hooks")):
            hook_id = str(hook.get("id", ""))
            args = _args(hook.get("args"))
            if url.endswith(PYLINT_REPOS) or hook_id.startswith("pylint_odoo"):
                rcfiles += [top / value for key, value in args if key == "--rcfile"]
                pylint_args += [f"{key}={value}" for key, value in args if key in _PYLINT_OPTIONS]
            elif url.endswith(HOOK_REPOS) or hook_id.startswith("oca-checks-"):
                hooks_seen = True
                disabled.update(value for key, value in args if key == "--disable")
            elif hook_id in ("ruff", "flake8"):
                linters.append(hook_id)
    return PreCommit(
        path=path,
        pylint_rcfiles=tuple(dict.fromkeys(rcfiles)),
        pylint_args=tuple(pylint_args),
        hooks_disabled=frozenset(_flatten(disabled)) if hooks_seen else TEMPLATE_HOOKS_DISABLED,
        python_linter=linters[0] if linters else None,
        exclude=exclude,
        pins=pins,
        problems=(f"exclude in {path}: {exclude_problem}",) if exclude_problem else (),
    )


_PYLINT_OPTIONS = ("--enable", "--disable", "--valid-odoo-versions")


def _list(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _args(raw: Any) -> list[tuple[str, str]]:
    """``["--rcfile=.pylintrc", "--disable", "x"]`` -> [("--rcfile", ".pylintrc"), ("--disable", "x")]."""
    items = [str(a) for a in raw] if isinstance(raw, list) else []
    pairs: list[tuple[str, str]] = []
    position = 0
    while position < len(items):
        item = items[position]
        if "=" in item:
            key, _, value = item.partition("=")
            pairs.append((key, value))
        elif item.startswith("--") and position + 1 < len(items) and not items[position + 1].startswith("-"):
            pairs.append((item, items[position + 1]))
            position += 1
        position += 1
    return pairs


def _flatten(values: set[str]) -> set[str]:
    return {name.strip() for value in values for name in value.split(",") if name.strip()}


def _exclude(value: Any) -> tuple[str | None, str | None]:
    """(the pattern for RE2, why it is not applied): pre-commit's Python regex minus its verbose
    flag (RE2 has none; whitespace and comments are removed here instead)."""
    if not isinstance(value, str) or not value.strip():
        return None, None
    pattern = linear_syntax(value)
    try:
        compile_linear(pattern)
    except InvalidInput as exc:
        return None, f"not applied ({exc.message})"
    return pattern, None


_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


def linear_syntax(pattern: str) -> str:
    """``pattern`` without Python's global ``(?x)``: RE2 reads the same expression."""
    flags = _FLAGS.match(pattern)
    if flags is None or "x" not in flags.group(1):
        return pattern
    kept = "".join(f for f in flags.group(1) if f in "ims")
    return (f"(?{kept})" if kept else "") + _without_verbose(pattern[flags.end() :])


def _without_verbose(text: str) -> str:
    out: list[str] = []
    position, in_class = 0, False
    while position < len(text):
        char = text[position]
        if char == "\\":
            out.append(text[position : position + 2])
            position += 2
            continue
        if in_class:
            in_class = char != "]" or out[-1] == "["
        elif char == "[":
            in_class = True
        elif char == "#":
            newline = text.find("\n", position)
            position = len(text) if newline < 0 else newline
            continue
        elif char.isspace():
            position += 1
            continue
        out.append(char)
        position += 1
    return "".join(out)
