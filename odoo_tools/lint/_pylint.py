"""pylint-odoo the way OCA runs it, in one pass: mandatory messages fail, optional ones inform.

OCA's pre-commit runs pylint twice (``.pylintrc`` with ``--exit-zero``, then
``.pylintrc-mandatory``). We run once with ``.pylintrc`` (a superset) plus the mandatory set,
and grade each message: in the mandatory set -> ``error``, else ``warning``. All addons of a
batch go through one pylint process (``--output-format=json2``); results are split per addon.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding, Severity
from odoo_tools.lint._common import (
    LINTER_TIMEOUT_SECONDS,
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
from odoo_tools.lint._inputs import ignore_paths_option, linter_skips
from odoo_tools.lint._pinned import confirm_with_pin
from odoo_tools.lint._spares import run_on_spare, take_spare

SOURCE = "pylint"
# Pylint talking about its own configuration (stale message names in an rc file): not the code's.
CONFIG_NOISE = frozenset({"unknown-option-value", "useless-option-value", "unrecognized-option"})
ALWAYS_ERRORS = frozenset({"syntax-error", "parse-error", "astroid-error", "fatal"})
USAGE_ERROR_BIT = 32
HINTS = {
    "manifest-required-key": 'Add the key to __manifest__.py (e.g. "license": "LGPL-3").',
    "license-allowed": "Use one of the allowed licenses (LGPL-3, AGPL-3, GPL-3, OPL-1, OEEL-1...).",
    "manifest-version-format": 'Use the series-prefixed version, e.g. "18.0.1.0.0".',
    "resource-not-exist": "Create the file or remove it from the manifest.",
    "print-used": "Use a module logger: _logger = logging.getLogger(__name__).",
    "attribute-string-redundant": "Drop string=...: Odoo derives the same label from the field name.",
    "missing-readme": "Add a README.rst describing the module.",
    "sql-injection": "Pass values as query parameters: cr.execute(query, params), or use odoo.tools.SQL.",
    "translation-required": "Wrap user-facing messages in self.env._(...).",
    "method-required-super": "Call super() in the override so other modules' logic still runs.",
    "missing-return": "Return the value of super() from the override.",
    "invalid-commit": "Never commit the cursor yourself; let the request/transaction do it.",
    "external-request-timeout": "Pass timeout=... to the request.",
    "odoo-addons-relative-import": "Import from the same module with a relative import (from . import x).",
    "syntax-error": "Fix the syntax error; nothing else in the file could be checked.",
}


def pylint_argv(addons: Sequence[Addon], config: LintConfig, series: str | None) -> list[str]:
    argv = [
        *PYTHON,
        "-m",
        "pylint",
        f"--rcfile={config.pylintrc}",
        "--output-format=json2",
        "--persistent=n",
        "--score=n",
        "--jobs=1",
        "--exit-zero",
    ]
    if config.pylint_is_default and series:
        argv.append(f"--valid-odoo-versions={series}")
    mandatory = config.mandatory_messages
    if mandatory and config.pylintrc != config.pylintrc_mandatory:
        argv.append("--enable=" + ",".join(sorted(mandatory)))
    argv += config.pylint_args  # the repository's pre-commit selections come last: they win
    argv += ignore_paths_option(linter_skips(addons))  # except a file no linter may open
    return argv + [str(addon.path) for addon in addons]


async def run_pylint(addons: Sequence[Addon], config: LintConfig, series: str | None) -> ByModule:
    if not addons:
        return {}
    if missing_package("pylint_odoo"):
        return tool_missing(
            addons, SOURCE, "pylint-odoo is not installed, so the pylint checks did not run.", "pylint-odoo"
        )
    argv = pylint_argv(addons, config, series)
    spare = take_spare(SOURCE)  # a pylint started early has its imports loaded already
    if spare is not None:
        result = await run_on_spare(spare, argv[len(PYTHON) + 2 :], LINTER_TIMEOUT_SECONDS)
    else:
        result = await run_linter(argv)
    try:
        messages = json.loads(result.stdout)["messages"]
    except (ValueError, KeyError, TypeError):
        messages = None
    if messages is None or result.timed_out or result.returncode & USAGE_ERROR_BIT:
        why = "timed out" if result.timed_out else f"failed (exit {result.returncode})"
        return failure_for_all(
            addons,
            SOURCE,
            "linter-crashed",
            f"pylint {why}: {tail(result.stderr or result.stdout) or 'no output'}",
            f"Run it by hand to see why: {' '.join(result.argv[:5])} <module>; "
            f"check the rc file {config.pylintrc_source or config.pylintrc}.",
        )
    found = split_messages(messages, addons, config)
    return await confirm_with_pin(found, addons, config, series)


def split_messages(messages: list[dict[str, Any]], addons: Sequence[Addon], config: LintConfig) -> ByModule:
    found = empty_result(addons)
    for message in messages:
        if message.get("symbol") in CONFIG_NOISE:
            continue
        path = Path(message.get("absolutePath") or message.get("path") or "")
        addon = owner_of(path, addons)
        if addon is None:  # about the configuration, not a file: report it on the batch's first addon
            addon, path = addons[0], addons[0].path
            message = {**message, "message": f"{message.get('path')}: {message.get('message')}"}
        found[addon.name].append(_finding(message, addon, path, config))
    return found


def _finding(message: dict[str, Any], addon: Addon, path: Path, config: LintConfig) -> Finding:
    symbol = str(message.get("symbol", ""))
    return Finding(
        source=SOURCE,
        code=str(message.get("messageId", symbol)),
        symbol=symbol,
        severity=grade(symbol, str(message.get("type", "")), config.mandatory_messages),
        module=addon.name,
        path=rel_path(path, addon),
        line=message.get("line") or None,
        column=_one_based(message.get("column")),
        message=one_line(str(message.get("message", ""))),
        hint=HINTS.get(symbol, f"See pylint-odoo's {symbol}; if intended, add '# pylint: disable={symbol}'."),
    )


def _one_based(column: Any) -> int | None:
    # pylint counts columns from 0; findings (like flake8 and SARIF) count from 1.
    return column + 1 if isinstance(column, int) else None


def grade(symbol: str, kind: str, mandatory: frozenset[str] | None) -> Severity:
    if symbol in ALWAYS_ERRORS or kind == "fatal":
        return "error"
    if mandatory is None:
        return "error" if kind == "error" else "warning"
    return "error" if symbol in mandatory else "warning"
