"""A repository's linter configuration is written by a stranger: ``check`` and the MCP lint tools
never run its code, never read a file outside it and never hang on its regexes. Each test plants a
hook that writes a marker file and asserts the marker never appears and the report says why."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import git

from odoo_tools.findings import Finding
from odoo_tools.lint import load_project
from odoo_tools.lint._configs import LintConfig, config_for_root
from odoo_tools.lint._precommit import linear_syntax, read_pre_commit
from odoo_tools.lint._runner import excluded
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import _module

CODE = "import os\n\n\ndef f():\n    print('x')\n"


def _repo(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    _module(root / "addons", "shop", ["base"], [], {"models.py": CODE})
    return root


def _payload(marker: Path) -> str:
    return f"open({str(marker)!r}, 'w').write('ran')"


def _check(repo: Path, tmp_path: Path, checks: str = "pylint") -> dict[str, object]:
    args = ["check", "--addons-path", str(repo / "addons"), "--checks", checks, "--format", "json"]
    result = run_cli(args, repo, tmp_path / "cache")
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def _notes(payload: dict[str, object]) -> str:
    notes = payload["notes"]
    assert isinstance(notes, list)
    return "\n".join(notes)


def _codes(payload: dict[str, object]) -> set[str]:
    findings = payload["findings"]
    assert isinstance(findings, list)
    return {f["code"] for f in findings}


def test_a_pylintrc_starting_with_a_bom_runs_no_hook(tmp_path: Path) -> None:
    """pylint strips the BOM (utf_8_sig); a reader that failed on it used to hand pylint the file."""
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "bom-marker"
    rc = f"[MASTER]\nload-plugins=pylint_odoo\ninit-hook={_payload(marker)}\n"
    rc += "[MESSAGES CONTROL]\ndisable=all\nenable=print-used\n"
    (repo / ".pylintrc").write_bytes(b"\xef\xbb\xbf" + rc.encode())
    payload = _check(repo, tmp_path)
    assert not marker.exists()
    assert "init-hook in" in _notes(payload)
    assert "W8116" in _codes(payload)  # the rc file's own selection still applies (print-used)


def test_an_init_hook_under_default_runs_no_hook(tmp_path: Path) -> None:
    """configparser gives [DEFAULT] to every section: pylint sees the hook in [MESSAGES CONTROL]."""
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "default-marker"
    (repo / ".pylintrc").write_text(
        f"[DEFAULT]\ninit-hook={_payload(marker)}\n[MESSAGES CONTROL]\ndisable=all\nenable=print-used\n",
        encoding="utf-8",
    )
    payload = _check(repo, tmp_path)
    assert not marker.exists()
    assert "init-hook in" in _notes(payload)


def test_a_toml_rcfile_named_by_the_pre_commit_runs_no_hook(tmp_path: Path) -> None:
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "toml-marker"
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n    rev: v9.0.4\n    hooks:\n"
        "      - id: pylint_odoo\n        args: [--rcfile=pylint.toml]\n",
        encoding="utf-8",
    )
    hook = json.dumps(_payload(marker))  # a TOML basic string
    (repo / "pylint.toml").write_text(
        f"[tool.pylint.main]\n\"init-hook\" = {hook}\nload-plugins = ['pylint_odoo']\n"
        "[tool.pylint.'messages control']\ndisable = ['all']\nenable = ['print-used']\n",
        encoding="utf-8",
    )
    payload = _check(repo, tmp_path)
    assert not marker.exists()
    assert "init-hook in" in _notes(payload)
    assert "W8116" in _codes(payload)


def test_pylints_evaluation_expression_is_never_evaluated(tmp_path: Path) -> None:
    """``evaluation`` is an expression pylint eval()s for its score (the json2 report always
    does), and argparse takes any unambiguous prefix of an option name."""
    repo = _repo(tmp_path / "repo")
    markers = [tmp_path / "evaluation-marker", tmp_path / "abbreviated-marker"]
    (repo / ".pylintrc").write_text(
        f"[REPORTS]\nevaluation=__import__('builtins').{_payload(markers[0])}\n"
        f"[MESSAGES CONTROL]\nevaluat=__import__('builtins').{_payload(markers[1])}\n",
        encoding="utf-8",
    )
    payload = _check(repo, tmp_path)
    assert [m for m in markers if m.exists()] == []
    assert "evaluation in" in _notes(payload) and "evaluat in" in _notes(payload)


def test_an_rcfile_pylint_would_read_differently_is_not_used_at_all(tmp_path: Path) -> None:
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "dup-marker"
    (repo / ".pylintrc").write_text(
        f"[MASTER]\njobs=1\njobs=2\ninit-hook={_payload(marker)}\n", encoding="utf-8"
    )  # a duplicate option: configparser refuses the file
    payload = _check(repo, tmp_path)
    assert not marker.exists()
    notes = _notes(payload)
    assert ".pylintrc not used" in notes and "default configuration" in notes
    assert "linter-crashed" not in _codes(payload)


def test_an_rcfile_outside_the_repository_is_not_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    outside = tmp_path / "elsewhere.cfg"
    outside.write_text("[MESSAGES CONTROL]\ndisable=all\nenable=print-used\n", encoding="utf-8")
    (repo / ".pylintrc").symlink_to(outside)
    payload = _check(repo, tmp_path)
    assert "lies outside the repository" in _notes(payload)


def test_ruff_extend_may_not_leave_the_repository(tmp_path: Path) -> None:
    """ruff follows ``extend`` anywhere and quotes the file it cannot parse in its error."""
    repo = _repo(tmp_path / "repo")
    secret = tmp_path / "secret.txt"
    secret.write_text("password = hunter2-SECRET\n[", encoding="utf-8")
    (repo / ".ruff.toml").write_text(f"extend = {str(secret)!r}\n[lint]\nselect = ['F401']\n", "utf-8")
    payload = _check(repo, tmp_path, "flake8")
    assert "hunter2" not in json.dumps(payload)
    assert "linter-crashed" not in _codes(payload)
    assert ".ruff.toml not used" in _notes(payload)
    assert "F401" in _codes(payload)  # our default ruff configuration ran instead


def test_ruff_extend_inside_the_repository_is_followed(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    (repo / "base.toml").write_text("[lint]\nselect = ['E501']\n", "utf-8")
    (repo / ".ruff.toml").write_text("extend = 'base.toml'\nline-length = 10\n", "utf-8")
    payload = _check(repo, tmp_path, "flake8")
    assert _codes(payload) == {"E501"}


def test_ruff_reads_no_configuration_next_to_the_modules(tmp_path: Path) -> None:
    """A pre-commit running ruff without a ruff file: ruff's defaults, not a pyproject.toml planted
    in a module (ruff would otherwise look for one beside every file)."""
    repo = _repo(tmp_path / "repo")
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.1.3\n"
        "    hooks:\n      - id: ruff\n",
        encoding="utf-8",
    )
    (repo / "addons" / "shop" / "pyproject.toml").write_text(
        "[tool.ruff]\nextend = '/etc/hostname'\n", encoding="utf-8"
    )
    payload = _check(repo, tmp_path, "flake8")
    assert "linter-crashed" not in _codes(payload)
    assert "F401" in _codes(payload)


def test_flake8_local_plugins_and_bom_configs_run_nothing(tmp_path: Path) -> None:
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "flake8-marker"
    (repo / "tox.ini").write_text(
        "[DEFAULT]\nmax-line-length = 20\n[flake8]\nselect = E501\n"
        "[flake8:local-plugins]\nextension =\n    EVL = evil:Plugin\npaths = .\n",
        encoding="utf-8",
    )
    (repo / "evil.py").write_text(_payload(marker) + "\n", encoding="utf-8")
    payload = _check(repo, tmp_path, "flake8")
    assert not marker.exists()
    assert "[flake8:local-plugins] in" in _notes(payload)
    assert _codes(payload) == {"E501"}  # [DEFAULT]'s max-line-length reaches [flake8], as in flake8


def test_pre_commit_exclude_runs_in_linear_time(tmp_path: Path) -> None:
    """``(a+)+!x`` against a path of 40 a's takes 2^40 steps on Python's backtracking ``re``."""
    (tmp_path / ".pre-commit-config.yaml").write_text("exclude: '(a+)+!x'\n", encoding="utf-8")
    pre_commit = read_pre_commit(tmp_path / ".pre-commit-config.yaml")
    config = LintConfig(
        pylintrc=tmp_path, pylintrc_mandatory=tmp_path, pylint_is_default=True, flake8_config=tmp_path,
        oca_hooks_config=None, exclude=pre_commit.exclude, top=tmp_path,
    )  # fmt: skip
    _module(tmp_path, "shop", ["base"], [], {})
    addon = load_project([tmp_path]).addon_set.get("shop")
    finding = Finding(
        source="pylint", code="C1", severity="warning", module="shop", path="a" * 40 + "!", message="m"
    )
    started = time.monotonic()
    assert excluded([finding], addon, config) == [finding]
    assert time.monotonic() - started < 2


def test_verbose_pre_commit_patterns_keep_their_meaning() -> None:
    pattern = linear_syntax("(?x)\n  ^addons/shop/legacy/|  # old code\n  /static/lib/ | [ ]x\\ y\n")
    assert pattern == "^addons/shop/legacy/|/static/lib/|[ ]x\\ y"
    assert read_pre_commit(None).exclude is None


def test_huge_or_self_multiplying_project_files_are_not_read_whole(tmp_path: Path) -> None:
    """A sparse 4 GiB pyproject.toml or .pre-commit-config.yaml at the top was read whole; a YAML
    alias bomb (nine aliases of nine, nine deep) was expanded when its arguments were read."""
    repo = _repo(tmp_path / "repo")
    for name in ("pyproject.toml", "setup.cfg"):
        with (repo / name).open("wb") as handle:
            handle.truncate(4 << 30)
    config = config_for_root(repo / "addons", series="17.0")  # the settings loader reads pyproject.toml too
    assert any("pyproject.toml not used" in note and "larger than" in note for note in config.ignored)
    (repo / "pyproject.toml").unlink()
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [{', '.join(['*' + chr(97 + n)] * 9)}]\n" for n in range(8)
    )
    bomb += "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n    hooks:\n"
    bomb += "      - id: pylint_odoo\n        args: *i\n"
    (repo / ".pre-commit-config.yaml").write_text(bomb, encoding="utf-8")
    started = time.monotonic()
    payload = _check(repo, tmp_path, "flake8")
    assert time.monotonic() - started < 120
    assert ".pre-commit-config.yaml could not be read" in _notes(payload)


def test_an_oca_hooks_config_linking_out_of_the_repository_is_not_read(tmp_path: Path) -> None:
    """``.oca_hooks.cfg`` used to reach the OCA hooks as found: a link to a file outside the
    repository (/etc/shadow) was opened, and its first line came back in the crash finding of a
    check report (a CI log of a pull request)."""
    repo = _repo(tmp_path / "repo")
    outside = tmp_path / "secret.txt"
    outside.write_text("root:$6$secret-hash:20228:0:99999:7:::\n", encoding="utf-8")
    (repo / ".oca_hooks.cfg").symlink_to(outside)
    payload = _check(repo, tmp_path, checks="oca-hooks")
    assert "secret-hash" not in json.dumps(payload)
    assert "oca-hooks-crashed" not in _codes(payload)
    assert ".oca_hooks.cfg not used: it lies outside the repository" in _notes(payload)


def test_an_oca_hooks_config_is_read_as_the_hooks_read_it(tmp_path: Path) -> None:
    """Its [MESSAGES_CONTROL] selection still applies, through our copy (with ``%`` escaped, as
    the hooks interpolate); one the hooks could not parse is not used, and the report says so."""
    repo = _repo(tmp_path / "repo")
    (repo / ".oca_hooks.cfg").write_text(
        "[MESSAGES_CONTROL]\nsuffix = -author\ndisable = manifest-required%(suffix)s, 100%%\n",
        encoding="utf-8",
    )
    config = config_for_root(repo / "addons")
    assert config.oca_hooks_config is not None and config.oca_hooks_config.parent != repo
    copied = config.oca_hooks_config.read_text(encoding="utf-8")
    assert "disable = manifest-required-author, 100%%" in copied and "suffix" not in copied
    (repo / ".oca_hooks.cfg").write_text("no section\n", encoding="utf-8")
    refused = config_for_root(repo / "addons")
    assert refused.oca_hooks_config is None
    assert any(".oca_hooks.cfg not used" in note for note in refused.ignored)


def test_a_git_directory_planted_in_the_tree_is_never_used(tmp_path: Path) -> None:
    """A pull request can commit an addons folder that is itself a git directory (HEAD, objects/,
    refs/, a config with core.worktree = . and core.fsmonitor): git, run from inside it, takes it
    for the repository and runs its fsmonitor command. ``check --changed`` from that folder ran it;
    such a folder is refused (a checkout's repository lives in a ``.git``)."""
    repo, marker = _repo(tmp_path / "repo"), tmp_path / "fsmonitor-marker"
    (repo / ".git").rmdir()
    template = git.Repo.init(tmp_path / "template", initial_branch="main")
    (tmp_path / "template" / "f").write_text("x\n", encoding="utf-8")
    template.git.add("f")
    template.git.commit("-q", "-m", "t", "--no-verify", "--author", "t <t@example.com>")
    planted = repo / "addons"
    for name in ("HEAD", "objects", "refs"):
        source = tmp_path / "template" / ".git" / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, planted / name)
    (planted / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n"
        f'\tfsmonitor = "touch {marker}; false #"\n',
        encoding="utf-8",
    )
    outer = git.Repo.init(repo, initial_branch="main")
    outer.git.add("-A")
    outer.git.commit("-q", "-m", "pr", "--no-verify", "--author", "t <t@example.com>")
    args = ["check", "--changed", "--base", "main", "--format", "json", "."]
    result = run_cli(args, planted, tmp_path / "cache")
    assert not marker.exists()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "not a checkout's .git" in result.stderr, result.stderr


def test_configuration_is_not_looked_for_where_another_account_may_write(tmp_path: Path) -> None:
    """Outside a git checkout the search for linter files goes up the folders; one that others may
    write (/tmp) is where another local account puts a .pylintrc (disable=all) or a ruff.toml
    (ignore ALL) that silenced the user's check. The search stops below such a folder."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / ".pylintrc").write_text("[MESSAGES CONTROL]\ndisable=all\n", encoding="utf-8")
    (shared / "ruff.toml").write_text('lint.ignore = ["ALL"]\n', encoding="utf-8")
    (shared / ".oca_hooks.cfg").write_text(
        "[MESSAGES_CONTROL]\ndisable=xml-header-missing\n", encoding="utf-8"
    )
    _module(shared / "project" / "addons", "shop", ["base"], [], {"models.py": CODE})
    config = config_for_root(shared / "project" / "addons")
    assert config.used == ()
    assert config.pylintrc_source is None and config.ruff_source is None and config.oca_hooks_config is None
    (shared / "project" / ".pylintrc").write_text("[MESSAGES CONTROL]\ndisable=all\n", encoding="utf-8")
    assert config_for_root(shared / "project" / "addons").pylintrc_source == shared / "project" / ".pylintrc"
