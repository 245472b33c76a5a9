"""Helpers every linter adapter shares: the child environment, placing paths, tool failures."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding, Severity
from odoo_tools.lint._env import LINTER_MEMORY_BYTES as LINTER_MEMORY_BYTES
from odoo_tools.lint._env import LINTER_TIMEOUT_SECONDS as LINTER_TIMEOUT_SECONDS
from odoo_tools.lint._env import PYTHON as PYTHON
from odoo_tools.lint._env import linter_env as linter_env
from odoo_tools.process import ProcessResult, run_process

ByModule = dict[str, list[Finding]]


TOOL_MISSING = "tool-missing"
LINTER_CRASHED = "linter-crashed"
# Codes that say a linter did not run to the end (absent, crashed, timed out): such an answer is
# shown but never cached, or a passing hiccup would be replayed until a file of the module changes.
INCOMPLETE_RUN = frozenset({TOOL_MISSING, LINTER_CRASHED})


async def run_linter(argv: Sequence[str]) -> ProcessResult:
    """A linter child: our environment only, from the private folder, under the time and memory
    limits every linter shares."""
    from odoo_tools.lint._safe_config import private_dir

    return await run_process(
        argv,
        env=linter_env(),
        cwd=private_dir(),
        timeout=LINTER_TIMEOUT_SECONDS,
        memory_limit=LINTER_MEMORY_BYTES,
    )


def missing_package(package: str) -> bool:
    return importlib.util.find_spec(package) is None


def install_command(distribution: str) -> str:
    """``pip install NAME==VERSION`` with the version assista-odoo pins (constraints.txt)."""
    try:
        requires = importlib.metadata.requires("assista-odoo") or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    for requirement in requires:
        pinned = requirement.split(";")[0].strip()
        if pinned.lower().startswith(distribution.lower() + "=="):
            return f"pip install {pinned}"
    return f"pip install {distribution}"


def tool_missing(addons: Sequence[Addon], source: str, message: str, distribution: str) -> ByModule:
    """The linter is absent: one ``tool-missing`` finding per addon, which ``lint_addons`` folds
    into one note for the run (the environment is broken, not the modules)."""
    hint = f"Install it: {install_command(distribution)}"
    return failure_for_all(addons, source, TOOL_MISSING, message, hint)


def empty_result(addons: Sequence[Addon]) -> ByModule:
    return {addon.name: [] for addon in addons}


def owner_of(path: Path, addons: Sequence[Addon]) -> Addon | None:
    """The addon whose folder holds ``path`` (absolute)."""
    parts = path.parts  # a prefix of parts: ``path.parents`` built a Path per level, per addon
    for addon in addons:
        folder = addon.path.parts
        if parts[: len(folder)] == folder:
            return addon
    return None


def rel_path(path: Path, addon: Addon) -> str:
    """``path`` relative to the addon's root; a path outside it (ruff names a broken link's
    target, /nonexistent) is reported on the module's folder, never outside the repository."""
    try:
        return addon.rel(path)
    except ValueError:
        return addon.rel(addon.path)


def one_line(message: str) -> str:
    """A linter's message on one line (pylint's F0010 carries the OS error on a second one):
    text, GitHub and other one-finding-per-line formats would break on the newline."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


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
