"""A linter process started early: it imports its linter (and pylint bootstraps astroid's view
of the builtins, ~0.4 s) while the parent works out what to check, then runs the one request
it reads on stdin. Run by path (``python -P .../_spare_worker.py pylint|oca-hooks``): it imports
only the standard library and the linter, never this package.

Request: one JSON line ``{"argv": [...], "cwd": "..."}``; stdin closed without one: exit 0.
The run is exactly the one ``python -m pylint ARGV`` (or the OCA worker) would do.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

Runner = Callable[[list[str]], int]


def _pylint() -> Runner:
    import pylint_odoo  # noqa: F401  (the plugin every configuration loads)
    from astroid import MANAGER  # type: ignore[import-untyped]
    from astroid.builder import AstroidBuilder  # type: ignore[import-untyped]
    from pylint.lint import PyLinter, Run

    AstroidBuilder(MANAGER)  # bootstraps the builtins once, as the first parsed file would
    PyLinter().load_default_plugins()  # imports pylint's checker modules (~0.1 s) for Run's linter

    def run(argv: list[str]) -> int:
        Run(argv)  # exits with pylint's own status
        return 0

    return run


def _oca_hooks() -> Runner:
    spec = importlib.util.spec_from_file_location("_oca_worker", Path(__file__).with_name("_oca_worker.py"))
    assert spec is not None and spec.loader is not None
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    from oca_pre_commit_hooks import cli, cli_po, utils  # noqa: F401

    main: Runner = worker.main
    return main


PRELOADS: dict[str, Callable[[], Runner]] = {"pylint": _pylint, "oca-hooks": _oca_hooks}


def main() -> int:
    run = PRELOADS[sys.argv[1]]()
    line = sys.stdin.readline()
    if not line.strip():
        return 0  # not needed after all
    request = json.loads(line)
    os.chdir(request["cwd"])
    return run(list(request["argv"]))


if __name__ == "__main__":
    sys.exit(main())
