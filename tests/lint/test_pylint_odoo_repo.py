"""pylint-odoo's own test repository through our lint path: every message id counted as its
``EXPECTED_ERRORS`` says, nothing dropped, merged or crashed on.

The test repository is AGPL-3 (OCA/pylint-odoo), so it is not bundled: point
ASSISTA_TEST_PYLINT_ODOO_REPO at a source tree of the pylint-odoo version we pin (a git checkout
of its tag: ``testing/resources/test_repo`` and ``tests/test_main.py``). The bug it found (two
missing files of the same name merged into one) has a hand-written fixture below.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from tests.lint.conftest import run_cli

SOURCE = os.environ.get("ASSISTA_TEST_PYLINT_ODOO_REPO")
MANIFESTS = ("__manifest__.py", "__openerp__.py")
# What pylint-odoo's test_main.py enables (its default_extra_params), as a repository's .pylintrc.
ALL_MESSAGES_RC = """[MASTER]
load-plugins=pylint_odoo

[MESSAGES CONTROL]
disable=all
enable=odoolint,pointless-statement,trailing-newlines
"""


def _test_main_values(test_main: Path) -> dict[str, Any]:
    """EXPECTED_ERRORS and CHECKS_BY_ODOO_VERSION of pylint-odoo's tests/test_main.py, read
    without importing it (literals, and lists that splice other literal lists)."""
    names = ("EXPECTED_ERRORS", "LOGGING_TRANSLATION_CHECKS", "CHECKS_BY_ODOO_VERSION")
    values: dict[str, Any] = {}
    for node in ast.parse(test_main.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.Assign) and isinstance(target, ast.Name) and target.id in names:
            values[target.id] = _literal(node.value, values)
    assert "EXPECTED_ERRORS" in values, f"no EXPECTED_ERRORS in {test_main}"
    return values


def _literal(node: ast.expr, known: dict[str, Any]) -> Any:
    if isinstance(node, ast.Name):
        return known[node.id]
    if isinstance(node, ast.Starred):
        return _literal(node.value, known)
    if isinstance(node, (ast.List, ast.Tuple)):
        items: list[Any] = []
        for element in node.elts:
            value = _literal(element, known)
            if isinstance(element, ast.Starred):
                items.extend(value)
            else:
                items.append(value)
        return items if isinstance(node, ast.List) else tuple(items)
    return ast.literal_eval(node)


def _source_version(source: Path) -> str:
    init = source / "src" / "pylint_odoo" / "__init__.py"
    for line in init.read_text(encoding="utf-8").splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    return "unknown"


def _source() -> tuple[Path, dict[str, Any]]:
    source = Path(str(SOURCE))
    pinned = metadata.version("pylint-odoo")
    assert _source_version(source) == pinned, f"{source} is not pylint-odoo {pinned} (the version we pin)"
    return source, _test_main_values(source / "tests" / "test_main.py")


def _counts(source: Path, tmp_path: Path, valid_versions: str | None = None) -> Counter[str]:
    """``check --checks pylint`` on a copy of the test repository, every module named (as
    pylint-odoo's test names every file, installable: False ones too), the repository's .pylintrc
    enabling what pylint-odoo's test enables; ``valid_versions`` through its pre-commit, as OCA's."""
    repo = tmp_path / "repo"
    shutil.copytree(source / "testing" / "resources" / "test_repo", repo / "test_repo")
    (repo / ".git").mkdir()  # the repository top: its .pylintrc is the configuration
    (repo / ".pylintrc").write_text(ALL_MESSAGES_RC)
    if valid_versions:
        (repo / ".pre-commit-config.yaml").write_text(
            "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n    rev: v10.0.12\n    hooks:\n"
            "      - id: pylint_odoo\n        args:\n          - --rcfile=.pylintrc\n"
            f"          - --valid-odoo-versions={valid_versions}\n"
        )
    modules = sorted(
        str(p) for p in (repo / "test_repo").iterdir() if any((p / m).is_file() for m in MANIFESTS)
    )
    result = run_cli(
        ["check", "--checks", "pylint", "--format", "json", "--no-cache", *modules],
        repo,
        tmp_path / "cache",
    )
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)["findings"]
    crashed = [f["message"] for f in findings if f["code"] in ("linter-crashed", "tool-missing")]
    assert crashed == []
    return Counter(f.get("symbol") or f["code"] for f in findings)


def _mismatches(counts: Counter[str], expected: dict[str, int]) -> dict[str, tuple[int, int]]:
    """(ours, expected) per message id that differs."""
    keys = sorted(set(counts) | set(expected))
    return {k: (counts.get(k, 0), expected.get(k, 0)) for k in keys if counts.get(k, 0) != expected.get(k, 0)}


@pytest.mark.skipif(not SOURCE, reason="set ASSISTA_TEST_PYLINT_ODOO_REPO to a pylint-odoo source tree")
def test_pylint_odoo_test_repo_counts_match_expected_errors(tmp_path: Path) -> None:
    source, values = _source()
    assert _mismatches(_counts(source, tmp_path), values["EXPECTED_ERRORS"]) == {}


@pytest.mark.skipif(not SOURCE, reason="set ASSISTA_TEST_PYLINT_ODOO_REPO to a pylint-odoo source tree")
@pytest.mark.parametrize("series", ["13.0", "14.0", "15.0", "17.0", "18.0", "19.0", "20.0"])
def test_pylint_odoo_test_repo_counts_per_valid_odoo_version(tmp_path: Path, series: str) -> None:
    """pylint-odoo's test_25: per --valid-odoo-versions, its version-bound messages drop out."""
    source, values = _source()
    excluded = dict(values["CHECKS_BY_ODOO_VERSION"])[series]
    expected = {k: v for k, v in values["EXPECTED_ERRORS"].items() if k not in excluded}
    expected["manifest-version-format"] = 6
    assert _mismatches(_counts(source, tmp_path, series), expected) == {}


def test_same_missing_file_in_data_and_demo_is_two_findings(tmp_path: Path) -> None:
    """pylint-odoo reports a missing file listed under "data" and "demo" twice (two entries to
    fix); the merge of pylint's and the static checks' missing-file findings kept only one."""
    module = tmp_path / "addons" / "twice"
    module.mkdir(parents=True)
    (module / "__init__.py").write_text("")
    (module / "__manifest__.py").write_text(
        "{\n"
        '    "name": "Twice",\n'
        '    "version": "17.0.1.0.0",\n'
        '    "license": "LGPL-3",\n'
        '    "depends": ["base"],\n'
        '    "data": ["views/missing.xml"],\n'
        '    "demo": ["views/missing.xml"],\n'
        "}\n"
    )
    project = load_project([tmp_path / "addons"])
    run = lint_addons_sync(
        project, project.select([]), ["pylint"], cache=LintCache(None), digests=FileDigests()
    )
    missing = sorted(f.line or 0 for f in run.findings if f.symbol == "resource-not-exist")
    assert missing == [6, 7]
