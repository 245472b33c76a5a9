"""A warm re-check after an edit says exactly what a cold run says, and re-runs only the checks
that read the edited file: a fresh process each time (new project, new ``StoredDigests``), as a
pre-commit hook or CI job would."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from odoo_tools.findings import Finding
from odoo_tools.lint import FileDigests, LintCache, LintRun, StoredDigests, lint_addons_sync, load_project
from odoo_tools.lint._digest_store import linters_for_changes
from tests.lint.conftest import FIXTURE_ADDONS, run_cli


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    target = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    _age(target)
    return target


def _age(tree: Path) -> None:
    """Files as a real checkout has them: written well before the check (not "racy")."""
    old = time.time() - 3600
    for path in tree.rglob("*"):
        os.utime(path, (old, old))


def _warm(tree: Path, cache_dir: Path) -> tuple[LintRun, StoredDigests]:
    project = load_project([tree])
    digests = StoredDigests(cache_dir, project.roots)
    run = lint_addons_sync(project, project.select([]), cache=LintCache(cache_dir), digests=digests)
    digests.save()
    return run, digests


def _cold(tree: Path) -> list[Finding]:
    project = load_project([tree])
    run = lint_addons_sync(project, project.select([]), cache=LintCache(None), digests=FileDigests())
    return run.findings


def test_warm_findings_equal_cold_ones_after_a_python_and_an_xml_edit(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(tree, cache)
    run, digests = _warm(tree, cache)
    assert run.checked == {} and digests.read_count == 0  # nothing re-read, nothing re-run

    model = tree / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text(encoding="utf-8") + "\nimport json\nprint(1)\n", encoding="utf-8")
    run, digests = _warm(tree, cache)
    assert digests.read_count == 1  # the edited file only
    # The Python linters on its module only; the OCA hooks read no Python but the manifest.
    assert run.checked.get("pylint") == ["library_loan"] and run.checked.get("flake8") == ["library_loan"]
    assert "oca-hooks" not in run.checked
    assert run.findings == _cold(tree)
    assert {("F401", "library_loan/models/library_loan.py")} <= {(f.code, f.path) for f in run.findings}

    # Removing an xml id another module refers to changes that other module's findings.
    menus = tree / "library_base" / "views" / "library_menus.xml"
    menus.write_text(menus.read_text(encoding="utf-8").replace('id="library_menu_root"', 'id="library_top"'))
    run, _ = _warm(tree, cache)
    assert "pylint" not in run.checked and "flake8" not in run.checked  # no Python was touched
    assert run.checked.get("oca-hooks") == ["library_base"]
    assert run.findings == _cold(tree)
    undefined = [f for f in run.findings if f.code == "xml-id-undefined" and f.module == "library_loan"]
    assert [f.path for f in undefined] == ["library_loan/views/library_loan_views.xml"]


def test_cli_warm_after_an_edit_reports_what_no_cache_reports(tree: Path, tmp_path: Path) -> None:
    args = ["check", "--addons-path", str(tree), "--format", "json", "--checks", "flake8,oca-hooks,static"]

    def findings(*extra: str) -> list[object]:
        result = run_cli([*args, *extra], cwd=tmp_path, cache=tmp_path / "cache")
        assert result.returncode in (0, 1), result.stderr
        payload: dict[str, list[object]] = json.loads(result.stdout)
        return payload["findings"]

    findings()
    view = tree / "library_base" / "views" / "library_book_views.xml"
    view.write_text(view.read_text(encoding="utf-8").replace("<list", "<tree").replace("</list>", "</tree>"))
    assert findings() == findings("--no-cache")


def test_stored_digests_trust_old_files_and_reread_edited_ones(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    old, fresh = folder / "old.py", folder / "fresh.py"
    old.write_text("a = 1\n", encoding="utf-8")
    fresh.write_text("b = 1\n", encoding="utf-8")
    os.utime(old, (time.time() - 60, time.time() - 60))
    first = StoredDigests(tmp_path / "cache", [folder])
    digests = {p: first.file_digest(p) for p in (old, fresh)}
    first.save()
    second = StoredDigests(tmp_path / "cache", [folder])
    assert {p: second.file_digest(p) for p in (old, fresh)} == digests
    assert second.read_count == 1  # the file written a moment ago is never trusted by its stat
    old.write_text("a = 2\n", encoding="utf-8")  # same size, new mtime
    third = StoredDigests(tmp_path / "cache", [folder])
    assert third.file_digest(old) != digests[old]
    (tmp_path / "cache" / "lint").mkdir(exist_ok=True)
    for stored in (tmp_path / "cache" / "lint").glob("files-*.json"):
        stored.write_text("{not json", encoding="utf-8")  # a damaged store costs a re-read only
    assert StoredDigests(tmp_path / "cache", [folder]).file_digest(fresh) == digests[fresh]


def test_early_linters_follow_what_changed_since_the_last_run(tree: Path, tmp_path: Path) -> None:
    """``check`` starts early only the linters the changed files need (so a spare is never wasted
    CPU, even on a busy machine), and cannot tell without an earlier run."""
    cache = tmp_path / "cache"
    tools = ["pylint", "oca-hooks"]
    assert linters_for_changes(tools, cache) is None  # no earlier run
    _warm(tree, cache)
    assert linters_for_changes(tools, cache) == []
    model = tree / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert linters_for_changes(tools, cache) == ["pylint"]
    _warm(tree, cache)  # the edit is seconds old: kept without its digest, re-read next time...
    assert linters_for_changes(tools, cache) == []  # ...yet known unchanged since
    model.write_text(model.read_text(encoding="utf-8") + "# again\n", encoding="utf-8")
    assert linters_for_changes(tools, cache) == ["pylint"]  # a second edit of a young file
    view = next((tree / "library_loan" / "views").glob("*.xml"))
    view.write_text(view.read_text(encoding="utf-8") + "<!-- x -->\n", encoding="utf-8")
    assert linters_for_changes(tools, cache) == ["pylint", "oca-hooks"]
    (tree / "library_loan" / "README.rst").write_text("new text\n", encoding="utf-8")
    _warm(tree, cache)
    assert linters_for_changes(["pylint"], cache) == []
