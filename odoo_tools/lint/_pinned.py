"""The pylint-odoo a repository pins, asked whether it too would fail a line.

A repository whose pre-commit pins an older pylint-odoo (OCA/hr 17.0: v9.0.4) fails its commits on
what that release reports, not on what ours does: a rule may have widened since (10.0's
attribute-string-redundant fires on ``category_id = fields.Many2one(string="Category")``, 9.0.4's
never did). So a mandatory message ours raises is an error only when the pinned release raises the
same message on the same line. The pinned release runs from its own virtual environment under the
user's cache folder (``<cache>/tools/pylint-odoo-<version>``, installed once from the package
index with pip, nothing of the repository involved: the version is checked to be a plain release
number), with the same cleaned rc file our pylint gets. Where it cannot be installed, no such
message fails: only what both releases would report may, and that cannot be told.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import os
import re
import secrets
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint._common import LINTER_MEMORY_BYTES, PYTHON, run_linter
from odoo_tools.lint._configs import LintConfig
from odoo_tools.lint._env import linter_env
from odoo_tools.process import run_process
from odoo_tools.storage import default_cache_dir

DISTRIBUTION = "pylint-odoo"
INSTALL_TIMEOUT_SECONDS = 600.0
# A failed install (no network, a release pip cannot build here) is tried again after this long.
RETRY_AFTER_SECONDS = 3600.0
_RELEASE = re.compile(r"^\d{1,4}(\.\d{1,4}){0,3}$")
_READY = "installed"
_PIP_OPTIONS = ("--quiet", "--no-input", "--disable-pip-version-check")
# What pip needs beyond a linter's environment: its own settings and the way out to the index.
_PIP_ENV = ("PIP_", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "SSL_CERT_", "REQUESTS_CA_BUNDLE")
# Where pinned tools are kept: the run's cache folder when it has one (``lint_addons`` sets it).
TOOLS_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("pinned_tools_dir", default=None)
_locks: dict[tuple[int, str], asyncio.Lock] = {}


@dataclass(frozen=True)
class PinnedAnswer:
    """What the pinned release reports: (absolute path, line, symbol), or why it could not run."""

    version: str
    reported: frozenset[tuple[str, int, str]] = frozenset()
    failure: str | None = None


def pinned_pylint(config: LintConfig) -> str | None:
    """The pylint-odoo release the repository pins, when it is older than ours."""
    for source, pinned, _ours in config.drift:
        if source == "pylint" and _RELEASE.match(pinned):
            return pinned
    return None


def tools_dir() -> Path:
    return TOOLS_DIR.get() or default_cache_dir() / "tools"


async def confirm_with_pin(
    found: dict[str, list[Finding]], addons: Sequence[Addon], config: LintConfig, series: str | None
) -> dict[str, list[Finding]]:
    """``found`` (per module) where each mandatory error the pinned release would not report on
    its line is a warning saying so."""
    version = pinned_pylint(config)
    if version is None:
        return found
    symbols = sorted(
        {f.symbol or f.code for fs in found.values() for f in fs if _fails_by_mandatory(f, config)}
    )
    if not symbols:
        return found
    answer = await _ask_pinned(version, symbols, addons, config, series)
    by_module = {a.name: a for a in addons}
    return {
        name: [_graded(f, answer, by_module[name]) if _fails_by_mandatory(f, config) else f for f in findings]
        for name, findings in found.items()
    }


def _fails_by_mandatory(finding: Finding, config: LintConfig) -> bool:
    mandatory = config.mandatory_messages or frozenset()
    return (
        config.oca_grading
        and finding.severity == "error"
        and (finding.symbol or finding.code) in mandatory
        and finding.line is not None
    )


def _graded(finding: Finding, answer: PinnedAnswer, addon: Addon) -> Finding:
    where = (os.path.realpath(addon.root / finding.path), finding.line or 0, finding.symbol or finding.code)
    if answer.failure is None and where in answer.reported:
        return finding
    if answer.failure is None:
        why = f"pylint-odoo {answer.version}, which the repository pins, does not report it on this line"
    else:
        why = (
            f"the repository pins pylint-odoo {answer.version}, which could not be run here "
            f"({answer.failure}), so only what it would also report may fail"
        )
    return finding.model_copy(update={"severity": "warning", "message": f"{finding.message} ({why})"})


async def _ask_pinned(
    version: str, symbols: list[str], addons: Sequence[Addon], config: LintConfig, series: str | None
) -> PinnedAnswer:
    python, failure = await _installed(version)
    if python is None:
        return PinnedAnswer(version, failure=failure)
    argv = [str(python), *PYTHON[1:], "-m", "pylint", f"--rcfile={config.pylintrc}", "--output-format=json"]
    # pylint before 2.14 loads plugins named in an rc file's [MASTER] section only; our cleaned
    # copy has other section names, and allows no other plugin anyway.
    argv.append("--load-plugins=pylint_odoo")
    argv += ["--persistent=n", "--score=n", "--jobs=1", "--exit-zero"]
    argv += [arg for arg in config.pylint_args if arg.startswith("--valid-odoo-versions=")]
    if config.pylint_is_default and series:
        argv.append(f"--valid-odoo-versions={series}")
    argv += ["--disable=all", "--enable=" + ",".join(symbols), *[str(a.path) for a in addons]]
    result = await run_linter(argv)
    try:
        messages = json.loads(result.stdout or "[]")
    except ValueError:
        messages = None
    if not isinstance(messages, list) or result.timed_out:
        return PinnedAnswer(version, failure=f"its pylint failed: {result.decisive_line()}")
    return PinnedAnswer(version, frozenset(_reported(messages)))


def _reported(messages: list[Any]) -> set[tuple[str, int, str]]:
    from odoo_tools.lint._safe_config import private_dir  # pylint runs from there: relative paths

    found = set()
    for message in messages:
        if isinstance(message, dict) and isinstance(message.get("line"), int):
            path = os.path.realpath(private_dir() / str(message.get("path", "")))
            found.add((path, message["line"], str(message.get("symbol", ""))))
    return found


async def _installed(version: str) -> tuple[Path | None, str | None]:
    """(the pinned release's Python, None) or (None, why it is not there)."""
    loop_key = (id(asyncio.get_running_loop()), version)
    async with _locks.setdefault(loop_key, asyncio.Lock()):
        target = tools_dir() / f"{DISTRIBUTION}-{version}"
        python = target / "bin" / "python"
        if (target / _READY).is_file():
            return python, None
        failed = target.with_name(target.name + ".failed")
        with contextlib.suppress(OSError):
            if time.time() - failed.stat().st_mtime < RETRY_AFTER_SECONDS:
                return None, failed.read_text(encoding="utf-8").strip()
        failure = await _install(version, target)
        if failure is None:
            return python, None
        with contextlib.suppress(OSError):
            failed.parent.mkdir(parents=True, exist_ok=True)
            failed.write_text(failure, encoding="utf-8")
        return None, failure


async def _install(version: str, target: Path) -> str | None:
    """Installs the release into a fresh folder, then renames it into place (another process
    doing the same at once loses nothing: the first complete one stays)."""
    staging = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(6)}")
    try:
        staging.parent.mkdir(parents=True, exist_ok=True)
        requirement = f"{DISTRIBUTION}=={version}"
        steps = (
            [sys.executable, "-m", "venv", str(staging)],
            [str(staging / "bin" / "python"), "-m", "pip", "install", *_PIP_OPTIONS, requirement],
        )
        for argv in steps:
            env = {**linter_env(), **{k: v for k, v in os.environ.items() if k.upper().startswith(_PIP_ENV)}}
            result = await run_process(
                argv, env=env, timeout=INSTALL_TIMEOUT_SECONDS, memory_limit=LINTER_MEMORY_BYTES
            )
            if result.returncode != 0 or result.timed_out:
                return f"pip install {DISTRIBUTION}=={version} failed: {result.decisive_line()}"
        (staging / _READY).write_text(f"{DISTRIBUTION}=={version}\n", encoding="utf-8")
        try:
            staging.rename(target)
        except OSError:
            if not (target / _READY).is_file():
                raise
        return None
    except OSError as exc:
        return f"could not install {DISTRIBUTION}=={version}: {exc}"
    finally:
        shutil.rmtree(staging, ignore_errors=True)
