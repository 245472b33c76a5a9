"""Helpers every linter adapter shares: the child environment, placing paths, tool failures."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding, Severity

# Linters need none of the project's secrets: the child gets only what Python needs to run.
_ENV_KEEP = (
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "SYSTEMROOT",
)
LINTER_TIMEOUT_SECONDS = 900.0
# How linters are started: from a private working folder (``_safe_config.private_dir``) and, where
# Python has it (3.11+), with -P, so nothing of the project is importable from the current folder.
PYTHON: tuple[str, ...] = (sys.executable, "-P") if sys.version_info >= (3, 11) else (sys.executable,)

ByModule = dict[str, list[Finding]]


def linter_env() -> dict[str, str]:
    env = {key: os.environ[key] for key in _ENV_KEEP if key in os.environ}
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # never drop __pycache__ into the user's addons
    return env


def missing_package(package: str) -> bool:
    return importlib.util.find_spec(package) is None


def empty_result(addons: Sequence[Addon]) -> ByModule:
    return {addon.name: [] for addon in addons}


def owner_of(path: Path, addons: Sequence[Addon]) -> Addon | None:
    """The addon whose folder holds ``path`` (absolute)."""
    for addon in addons:
        if path == addon.path or addon.path in path.parents:
            return addon
    return None


def rel_path(path: Path, addon: Addon) -> str:
    try:
        return addon.rel(path)
    except ValueError:
        return path.as_posix()


def failure_for_all(
    addons: Sequence[Addon], source: str, code: str, message: str, hint: str, severity: Severity = "error"
) -> ByModule:
    """The same finding on every addon of a batch: a linter that is missing or crashed."""
    return {
        addon.name: [
            Finding(
                source=source,
                code=code,
                severity=severity,
                module=addon.name,
                path=rel_path(addon.path, addon),
                message=message,
                hint=hint,
            )
        ]
        for addon in addons
    }


def tail(text: str) -> str:
    """The last line of a crashed tool's output: the error itself, not its traceback."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""
