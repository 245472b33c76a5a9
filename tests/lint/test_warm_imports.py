"""A warm ``check`` loads only what its edits need: a pre-commit hook runs it in a fresh process
on every commit, and its start-up is most of a warm run. Observed from inside a real CLI process
through audit hooks (every import and every process started), never by timing."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.lint.conftest import FIXTURE_ADDONS, run_cli

# Runs `assista-odoo check` in this process and prints what it imported and the processes it
# started (argv), as JSON, on the last line of stderr.
DRIVER = """
import json, sys
seen = {"imports": set(), "processes": []}

def audit(event, args):
    if event == "import":
        seen["imports"].add(args[0].split(".")[0])
    elif event == "subprocess.Popen":
        seen["processes"].append([str(a) for a in (args[1] or [])])

sys.addaudithook(audit)
from assista_mcp.cli import main

code = main(sys.argv[1:])
sys.stdout.flush()
seen["imports"] = sorted(seen["imports"])
print(json.dumps(seen), file=sys.stderr)
sys.exit(code)
"""
NEVER = {"litellm", "mcp", "astroid", "pylint", "pylint_odoo"}  # in check's own process, ever
# Read only for the repository files that need them (none in the fixture tree): a pre-commit
# file (yaml), a ruff configuration (tomlkit), an exclude pattern (re2); lxml for the XML of
# the static checks, which a run with nothing changed answers from the cache.
UNCHANGED_NEVER = NEVER | {"yaml", "tomlkit", "re2", "lxml"}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    target = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    old = time.time() - 3600  # written well before the check, as in a real checkout
    for path in target.rglob("*"):
        os.utime(path, (old, old))
    return target


def _warm(tree: Path, cache: Path) -> dict[str, list[Any]]:
    args = ["check", "--addons-path", str(tree), "--format", "json", "--output", str(tree.parent / "r.json")]
    result = run_cli(args, tree.parent, cache, command=[sys.executable, "-c", DRIVER])
    assert result.returncode in (0, 1), result.stderr[-2000:]
    seen: dict[str, list[Any]] = json.loads(result.stderr.strip().splitlines()[-1])
    return seen


def _linters(seen: dict[str, list[Any]]) -> set[str]:
    """The linters the run started, from the processes' argv (a spare names its linter last)."""
    found = set()
    for argv in seen["processes"]:
        words = [str(w) for w in argv]
        text = " ".join(words)
        if "pylint" in text and "oca" not in words[-1]:
            found.add("pylint")
        if "oca" in text:
            found.add("oca-hooks")
    return found


def test_a_warm_check_loads_no_python_linter_when_no_python_file_changed(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _warm(tree, cache)  # cold: every linter runs
    assert {"pylint", "oca-hooks"} <= _linters(first)  # the observation sees linters that run
    assert not NEVER & set(first["imports"])

    unchanged = _warm(tree, cache)
    assert _linters(unchanged) == set()
    assert not UNCHANGED_NEVER & set(unchanged["imports"])

    view = tree / "library_loan" / "views" / "library_loan_views.xml"
    view.write_text(view.read_text(encoding="utf-8") + "<!-- edited -->\n", encoding="utf-8")
    xml_edit = _warm(tree, cache)
    assert _linters(xml_edit) == {"oca-hooks"}  # the OCA hooks read XML; pylint is not started
    assert not NEVER & set(xml_edit["imports"])

    model = tree / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    py_edit = _warm(tree, cache)
    assert "pylint" in _linters(py_edit)  # a Python edit does start it (the guard can fail)
    assert not NEVER & set(py_edit["imports"])
