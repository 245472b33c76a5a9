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


def expected_errors(test_main: Path) -> dict[str, int]:
    """``EXPECTED_ERRORS`` of pylint-odoo's tests/test_main.py, read without importing it."""
    for node in ast.parse(test_main.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "EXPECTED_ERRORS" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, dict)
            return value
    raise AssertionError(f"no EXPECTED_ERRORS in {test_main}")


def _source_version(source: Path) -> str:
    init = source / "src" / "pylint_odoo" / "__init__.py"
    for line in init.read_text(encoding="utf-8").splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    return "unknown"


@pytest.mark.skipif(not SOURCE, reason="set ASSISTA_TEST_PYLINT_ODOO_REPO to a pylint-odoo source tree")
def test_pylint_odoo_test_repo_counts_match_expected_errors(tmp_path: Path) -> None:
    source = Path(str(SOURCE))
    pinned = metadata.version("pylint-odoo")
    assert _source_version(source) == pinned, f"{source} is not pylint-odoo {pinned} (the version we pin)"
    expected = expected_errors(source / "tests" / "test_main.py")
    repo = tmp_path / "repo"
    shutil.copytree(source / "testing" / "resources" / "test_repo", repo / "test_repo")
    (repo / ".git").mkdir()  # the repository top: its .pylintrc is the configuration
    (repo / ".pylintrc").write_text(ALL_MESSAGES_RC)
    modules = sorted(
        str(p) for p in (repo / "test_repo").iterdir() if any((p / m).is_file() for m in MANIFESTS)
    )
    # Every module named, as pylint-odoo's test names every file (installable: False ones too).
    result = run_cli(
        ["check", "--checks", "pylint", "--format", "json", "--no-cache", *modules],
        repo,
        tmp_path / "cache",
    )
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)["findings"]
    crashed = [f["message"] for f in findings if f["code"] in ("linter-crashed", "tool-missing")]
    assert crashed == []
    counts = Counter(f.get("symbol") or f["code"] for f in findings)
    diff = {k: (counts.get(k, 0), expected.get(k, 0)) for k in set(counts) | set(expected)}
    assert {k: v for k, v in sorted(diff.items()) if v[0] != v[1]} == {}  # (ours, expected)


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
