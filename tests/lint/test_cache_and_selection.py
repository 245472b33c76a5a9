"""Content-hash cache (a touched module is the only one re-checked), --changed via git, shards."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import git
import pytest

from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.lint._changes import changed_modules, shard
from tests.lint.conftest import FIXTURE_ADDONS, run_cli

FAST = ["flake8", "static"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    target = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    return target


def _run(
    tree: Path, cache: LintCache, checks: list[str] = FAST
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    project = load_project([tree])
    run = lint_addons_sync(project, project.select([]), checks, cache=cache, digests=FileDigests())
    return run.cached, run.checked


def test_second_run_is_all_cache_and_a_touched_module_alone_is_rechecked(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    cached, checked = _run(tree, cache)
    assert cached == {} and sorted(checked["flake8"]) == ["library_base", "library_broken", "library_loan"]
    cached, checked = _run(tree, cache)
    assert checked == {} and cache.hits == 6
    model = tree / "library_loan" / "models" / "library_loan.py"
    model.write_text(model.read_text(encoding="utf-8") + "\nx = 1  \n", encoding="utf-8")
    cached, checked = _run(tree, cache)
    assert checked["flake8"] == ["library_loan"]
    assert sorted(cached["flake8"]) == ["library_base", "library_broken"]


def test_static_results_follow_the_dependencies_content(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    _run(tree, cache, ["static"])
    menus = tree / "library_base" / "views" / "library_menus.xml"
    menus.write_text(menus.read_text(encoding="utf-8").replace("library_menu_root", "library_menu_top"))
    _, checked = _run(tree, cache, ["static"])
    # library_loan's menu refers to library_base.library_menu_root: its answer depends on library_base.
    assert sorted(checked["static"]) == ["library_base", "library_broken", "library_loan"]


def test_a_new_finding_after_an_edit_is_not_hidden_by_the_cache(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    project = load_project([tree])
    digests = FileDigests()
    loan = [project.addon_set.get("library_loan")]
    assert lint_addons_sync(project, loan, ["flake8"], cache=cache, digests=digests).findings == []
    (tree / "library_loan" / "models" / "library_book.py").write_text("import os\n", encoding="utf-8")
    found = lint_addons_sync(project, loan, ["flake8"], cache=cache, digests=digests).findings
    assert [(f.code, f.path, f.line) for f in found] == [("F401", "library_loan/models/library_book.py", 1)]


def test_config_change_invalidates_the_cache(tree: Path, tmp_path: Path) -> None:
    cache = LintCache(tmp_path / "cache")
    _run(tree, cache, ["flake8"])
    (tree / ".flake8").write_text("[flake8]\nmax-line-length = 200\n", encoding="utf-8")
    git.Repo.init(tree)  # the project's config is looked up to the repository top
    _, checked = _run(tree, cache, ["flake8"])
    assert len(checked["flake8"]) == 3


def _commit_all(repo: git.Repo) -> None:
    repo.git.add("-A")
    repo.git.commit("-q", "-m", "snapshot", "--no-verify")


@pytest.fixture
def repo(tree: Path) -> git.Repo:
    repository = git.Repo.init(tree.parent, initial_branch="main")
    with repository.config_writer() as config:
        config.set_value("user", "name", "t")
        config.set_value("user", "email", "t@example.com")
    _commit_all(repository)
    return repository


def test_changed_selects_modules_with_changed_files(tree: Path, repo: git.Repo) -> None:
    repo.git.checkout("-q", "-b", "feature")
    (tree / "library_loan" / "README.rst").write_text("Loans\n", encoding="utf-8")  # untracked counts
    project = load_project([tree])
    from odoo_tools.lint._changes import changed_files

    _, paths = changed_files(tree, "main")
    assert [a.name for a in changed_modules(project, paths, with_dependents=False)] == ["library_loan"]
    (tree / "library_base" / "models" / "library_book.py").write_text("# edited\n", encoding="utf-8")
    _, paths = changed_files(tree, "main")
    with_deps = changed_modules(project, paths, with_dependents=True)
    assert [a.name for a in with_deps] == ["library_base", "library_broken", "library_loan"]


def test_cli_changed_with_committed_change(tree: Path, repo: git.Repo, tmp_path: Path) -> None:
    repo.git.checkout("-q", "-b", "feature")
    view = tree / "library_loan" / "views" / "library_loan_views.xml"
    view.write_text(
        view.read_text(encoding="utf-8").replace("<list ", "<tree ").replace("</list>", "</tree>")
    )
    _commit_all(repo)
    args = ["check", "--addons-path", str(tree), "--changed", "--base", "main", "--format", "json"]
    result = run_cli([*args, "--checks", "static"], cwd=tree.parent, cache=tmp_path / "cache")
    payload = json.loads(result.stdout)
    assert result.returncode == 1 and payload["modules"] == ["library_loan"]
    assert [f["code"] for f in payload["findings"] if f["severity"] == "error"] == ["removed-tree"]
    assert "changed since main: 1 module(s): library_loan" in result.stderr  # what it picked, off stdout
    bad = run_cli([*args[:-2], "--base", "no-such-ref"], cwd=tree.parent, cache=tmp_path / "cache")
    assert bad.returncode == 2 and "Cannot compare with git base 'no-such-ref'" in bad.stderr
    assert "stderr:" not in bad.stderr and "Traceback" not in bad.stderr  # ours, not GitPython's
    written = run_cli([*args, "-o", str(tmp_path / "r.json")], cwd=tree.parent, cache=tmp_path / "cache")
    assert re.search(r"\d+ error\(s\), \d+ warning\(s\), \d+ info in 1 module", written.stdout)


def test_changed_outside_git_is_a_usage_error(tree: Path, tmp_path: Path) -> None:
    result = run_cli(["check", "--addons-path", str(tree), "--changed"], cwd=tree, cache=tmp_path / "c")
    assert result.returncode == 2 and "not inside a git repository" in result.stderr


def test_shard_is_deterministic_and_validated(tree: Path) -> None:
    addons = load_project([tree]).select([])
    parts = [[a.name for a in shard(addons, f"{i}/3")] for i in (1, 2, 3)]
    assert parts == [["library_base"], ["library_broken"], ["library_loan"]]
    assert [a.name for a in shard(list(reversed(addons)), "1/3")] == ["library_base"]
    with pytest.raises(InvalidInput):
        shard(addons, "0/3")


def test_select_by_path_and_by_folder(tree: Path) -> None:
    project = load_project([tree])
    assert [a.name for a in project.select([str(tree / "library_loan" / "models")])] == ["library_loan"]
    assert len(project.select([str(tree)])) == 3
    with pytest.raises(NotFound):
        project.select(["library_nothing"])
