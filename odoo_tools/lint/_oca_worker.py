"""Child-process entry point running oca-odoo-pre-commit-hooks in-process, printing JSON.

The hooks change the working directory while they run, so they get their own process (never a
thread of ours). Usage: ``python -P .../_oca_worker.py [--config FILE] MODULE_DIR...`` (by path:
it imports only the standard library and the hooks, never this package).
Output: JSON lines, one ``{module_dir, path, line, column, code, message, info, extra}`` object
per finding, ``path`` absolute (one object per line keeps every line short for the reader).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PO_DISABLED = "po-pretty-format"  # OCA's pre-commit disables it too
# Asks git for the repository's name (a process per module) for a Weblate limit of OCA's servers.
DEFAULT_DISABLED = "weblate-component-too-long"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="oca_worker")
    parser.add_argument("--config")
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args(argv)
    from oca_pre_commit_hooks import cli, cli_po, utils

    _entry_checks_once(utils)
    results: list[dict[str, Any]] = []
    config = ["--config", args.config] if args.config else [f"--disable={DEFAULT_DISABLED}"]
    for module_dir in args.modules:
        try:
            top = utils.top_path(module_dir)
            errors = _quiet(cli.main, [*config, "--no-exit", "--no-verbose", module_dir])
            po_files = sorted(str(p) for p in Path(module_dir).glob("i18n*/*.po*"))
            if po_files:
                po_config = [*config[:2], f"--disable={PO_DISABLED}"] if args.config else config
                errors += _quiet(cli_po.main, [*po_config, "--no-exit", "--no-verbose", *po_files])
        except Exception as exc:  # one module's crash must not hide the others' results
            results.append(_crash(module_dir, exc))
            continue
        results.extend(_as_dict(module_dir, top, error) for error in errors)
    for record in results:
        sys.stdout.write(json.dumps(record) + "\n")
    return 0


def _entry_checks_once(utils: Any) -> None:
    """The PO checker asks ``utils.getattr_checks`` for its ``visit_entry`` methods once per entry
    of a file: a ``dir()`` of the checker and a getattr per name each time, 40 % of the hooks' time
    on Odoo's PO files (hr, mrp, lunch: 186 files, 120,000 entries). The answer depends only on the
    checker, whose enabled messages are fixed for its file: it is asked once per checker. Other
    prefixes (once per file or module) go to the hooks' own function unchanged."""
    original = utils.getattr_checks
    held: list[Any] = [None, []]  # the checker asked last, its methods

    def getattr_checks(obj: Any, prefix: str = "check_", disable_node: Any = None) -> Any:
        if prefix != "visit_entry" or disable_node is not None:
            return original(obj, prefix, disable_node)
        if held[0] is not obj:  # files are checked one after the other: one checker at a time
            held[:] = [obj, list(original(obj, prefix, disable_node))]
        return iter(held[1])

    utils.getattr_checks = getattr_checks


def _quiet(entry: Any, argv: list[str]) -> list[Any]:
    # The hooks decode git output with sys.stdout.encoding, so the sink must have one.
    sink = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(sink):
        found = entry(argv)
    return list(found or [])


def _crash(module_dir: str, exc: Exception) -> dict[str, Any]:
    return {
        "module_dir": module_dir,
        "path": os.path.join(module_dir, "__manifest__.py"),
        "line": None,
        "column": None,
        "code": "oca-hooks-crashed",
        "message": f"oca-odoo-pre-commit-hooks crashed on this module: {type(exc).__name__}: {exc}",
        "info": "",
        "extra": [],
    }


def _as_dict(module_dir: str, top: str, error: Any) -> dict[str, Any]:
    position = error.position
    return {
        "module_dir": module_dir,
        "path": _absolute(top, position.filepath),
        "line": position.line or None,
        "column": position.column or None,
        "code": error.code,
        "message": ANSI.sub("", error.message),
        "info": ANSI.sub("", error.info or ""),
        "extra": [f"{_absolute(top, p.filepath)}:{p.line}" for p in error.extra_positions or []],
    }


def _absolute(top: str, path: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(top, path))


if __name__ == "__main__":
    sys.exit(main())
