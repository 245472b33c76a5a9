"""ruff, for repositories whose pre-commit (or configuration) lints Python with ruff instead of
flake8 (OCA's template since 2024): the repository's ruff configuration, our pinned ruff.

Never fixes (``--no-fix``: a ruff config may say ``fix = true``), writes no cache into the
repository, and reads no configuration file of the repository itself (``--config`` names the
copy ``_safe_config`` wrote, or ``--isolated``). A syntax error (ruff's ``invalid-syntax``) is
reported as ``E999``, like flake8.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint._common import (
    PYTHON,
    ByModule,
    empty_result,
    failure_for_all,
    missing_package,
    one_line,
    owner_of,
    rel_path,
    run_linter,
    tail,
    tool_missing,
)
from odoo_tools.lint._configs import LintConfig
from odoo_tools.lint._inputs import exclude_option, linter_skips
from odoo_tools.storage import read_capped

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SOURCE = "ruff"
# ruff's default rule set until 0.14, which OCA repositories pin; newer ruff enables many more by
# default, so a config that only ``extend-select``s would suddenly report rules it never chose.
PINNED_DEFAULT_SELECT = "lint.select = ['E4', 'E7', 'E9', 'F']"


def ruff_argv(addons: Sequence[Addon], config: LintConfig) -> list[str]:
    argv = [*PYTHON, "-m", "ruff", "check", "--no-fix", "--no-cache", "--exit-zero"]
    argv += ["--output-format=json", "--force-exclude"]
    if config.ruff_config is not None:
        argv.append(f"--config={config.ruff_config}")  # ours or _safe_config's copy: only it is read
    else:
        argv.append("--isolated")  # else ruff reads any pyproject.toml/ruff.toml near the files
    if not _selects(config.ruff_config):
        argv += ["--config", PINNED_DEFAULT_SELECT]
    argv += exclude_option(linter_skips(addons))  # a file no linter may open (--force-exclude)
    return argv + [str(addon.path) for addon in addons]


def _selects(path: Path | None) -> bool:
    """Whether the ruff configuration chooses its own base rule set (``select``)."""
    if path is None:
        return False
    try:  # the repository's file: a FIFO there must not block, nor a huge one load whole
        data = tomllib.loads((read_capped(path) or b"").decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("ruff", {})
    return "select" in data or "select" in data.get("lint", {})


async def run_ruff(addons: Sequence[Addon], config: LintConfig) -> ByModule:
    if missing_package("ruff"):
        return tool_missing(addons, SOURCE, "ruff is not installed, so it did not run.", "ruff")
    result = await run_linter(ruff_argv(addons, config))
    try:
        messages = json.loads(result.stdout or "[]")
    except ValueError:
        messages = None
    if not isinstance(messages, list) or result.timed_out or result.returncode != 0:
        if len(addons) > 1 and not result.timed_out:
            # One module's file can crash ruff (a 5,000-deep expression overflows its stack):
            # each module again on its own, so only that one is said not checked.
            alone = [await run_ruff([addon], config) for addon in addons]
            return {name: found for result_of in alone for name, found in result_of.items()}
        return failure_for_all(
            addons,
            SOURCE,
            "linter-crashed",
            f"ruff failed (exit {result.returncode}): {tail(result.stderr or result.stdout) or '-'}",
            f"Check the ruff configuration {config.ruff_source or config.ruff_config}"
            " (an option this ruff version refuses?), or the module's Python (nested so deep that"
            " ruff overflows?).",
        )
    return parse_messages(messages, addons)


def parse_messages(messages: list[dict[str, Any]], addons: Sequence[Addon]) -> ByModule:
    found = empty_result(addons)
    for message in messages:
        path = Path(str(message.get("filename", ""))).resolve()
        addon = owner_of(path, addons) or addons[0]
        found[addon.name].append(_finding(message, addon, path))
    return found


def _finding(message: dict[str, Any], addon: Addon, path: Path) -> Finding:
    code = str(message.get("code") or "E999")
    if code == "invalid-syntax":
        code = "E999"
    location = message.get("location") or {}
    return Finding(
        source=SOURCE,
        code=code,
        symbol=str(message.get("name") or code),
        severity="error",  # OCA's grading (its CI fails on every ruff message); _grading softens
        module=addon.name,
        path=rel_path(path, addon),
        line=location.get("row"),
        column=location.get("column"),
        message=one_line(str(message.get("message", ""))),
        hint=f"ruff {code}" + (f"; see {message['url']}" if message.get("url") else ""),
    )
