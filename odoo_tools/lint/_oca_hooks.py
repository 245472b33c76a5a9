"""XML/CSV/PO checks from oca-odoo-pre-commit-hooks, normalized into findings.

The hooks run in a child process (``odoo_tools.lint._oca_worker``) because they change the
working directory. OCA's pre-commit fails on all of them, so they come out as errors here;
``_grading`` turns the cosmetic ones (header spelling, attribute style) into infos by default.
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
from odoo_tools.lint._spares import run_on_spare, take_spare

SOURCE = "oca-hooks"
HINTS = {
    "xml-header-wrong": 'Use the header <?xml version="1.0" encoding="UTF-8" ?>.',
    "xml-duplicate-record-id": "Give each record its own id; the second one silently overwrites the first.",
    "file-not-used": "List the file in the manifest's data (or demo), or delete it.",
    "xml-syntax-error": "Fix the XML so it parses (or the file the manifest lists is missing).",
    "csv-syntax-error": "Fix the CSV so it parses.",
}


# Run by its path, not with -m: -m would first import this package (pydantic, our checks...),
# ~0.3 s of every run that the worker never uses (it imports only the stdlib and the hooks).
WORKER = Path(__file__).resolve().with_name("_oca_worker.py")


def worker_argv(addons: Sequence[Addon], config: LintConfig) -> list[str]:
    argv = [*PYTHON, str(WORKER)]
    if config.oca_hooks_config is not None:
        argv += ["--config", str(config.oca_hooks_config)]
    return argv + [str(addon.path) for addon in addons]


async def run_oca_hooks(addons: Sequence[Addon], config: LintConfig) -> ByModule:
    if not addons:
        return {}
    if missing_package("oca_pre_commit_hooks"):
        return tool_missing(
            addons,
            SOURCE,
            "oca-odoo-pre-commit-hooks is not installed, so the XML/CSV/PO checks did not run.",
            "oca-odoo-pre-commit-hooks",
        )
    argv = worker_argv(addons, config)
    spare = take_spare(SOURCE)  # a worker started early has the hooks imported already
    if spare is not None:
        result = await run_on_spare(spare, argv[len(PYTHON) + 1 :], LINTER_TIMEOUT_SECONDS)
    else:
        result = await run_linter(argv)
    try:
        records = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    except ValueError:
        records = None
    if records is None or result.returncode != 0:
        return failure_for_all(
            addons,
            SOURCE,
            "linter-crashed",
            f"oca-odoo-pre-commit-hooks failed (exit {result.returncode}): {tail(result.stderr) or '-'}",
            "Check the module's XML/CSV files and the .oca_hooks.cfg, then report the crash.",
        )
    found = empty_result(addons)
    for record in records:
        if record["code"] in config.hooks_disabled:  # disabled in the repository's pre-commit
            continue
        path = Path(record["path"])
        addon = owner_of(path, addons) or owner_of(Path(record["module_dir"]), addons) or addons[0]
        found[addon.name].append(_finding(record, addon, path))
    return found


def grade(code: str) -> Severity:
    """OCA's grading (its pre-commit fails on every message); ``_grading`` softens it by default."""
    return "error"


def _finding(record: dict[str, Any], addon: Addon, path: Path) -> Finding:
    code = str(record["code"])
    message = str(record["message"])
    if record.get("extra"):
        also = ", ".join(
            rel_path(Path(p.rsplit(":", 1)[0]), addon) + ":" + p.rsplit(":", 1)[1] for p in record["extra"]
        )
        message += f" (also at {also})"
    return Finding(
        source=SOURCE,
        code=code,
        symbol=code,
        severity=grade(code),
        module=addon.name,
        path=rel_path(path, addon),
        line=record.get("line"),
        column=record.get("column"),
        message=one_line(message),
        hint=HINTS.get(code) or str(record.get("info") or ""),
    )
