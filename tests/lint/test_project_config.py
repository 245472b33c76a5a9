"""The repository's own configuration wins (OCA-style .pre-commit-config.yaml), and linters never
run code from the project (init-hook, pylint plugins, flake8 local plugins are dropped)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from odoo_tools.lint._precommit import read_pre_commit
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import _module

CODE = "import os\n\n\ndef f():\n    print('x')  # a print and a long line " + "x" * 60 + "\n"


def _repo(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    _module(root / "addons", "shop", ["base"], [], {"models.py": CODE})
    return root


def test_linters_never_run_code_from_the_project(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    marker = tmp_path / "markers"
    marker.mkdir()
    payload = f"open({str(marker / '{}')!r}, 'w').write('ran')"
    (repo / ".pylintrc").write_text(
        "[MASTER]\n"
        f"init-hook={payload.format('init-hook')}\n"
        "load-plugins=pylint_odoo,evil_plugin\n"
        "[MESSAGES CONTROL]\ndisable=all\nenable=print-used\n",
        encoding="utf-8",
    )
    (repo / "evil_plugin.py").write_text(payload.format("pylint-plugin") + "\n", encoding="utf-8")
    (repo / ".flake8").write_text(
        "[flake8]\nmax-line-length = 88\n"
        "[flake8:local-plugins]\nextension =\n    EVL = evil_flake8:Plugin\npaths = .\n",
        encoding="utf-8",
    )
    (repo / "evil_flake8.py").write_text(
        payload.format("flake8-plugin") + "\nclass Plugin:\n    def __init__(self, tree):\n        pass\n",
        encoding="utf-8",
    )
    result = run_cli(
        ["check", "--addons-path", str(repo / "addons"), "--checks", "pylint,flake8"], repo, tmp_path / "c"
    )
    assert sorted(p.name for p in marker.iterdir()) == []
    assert "linter-crashed" not in result.stdout, result.stdout
    assert "print-used" in result.stdout and "E501" in result.stdout  # both linters really ran
    assert "init-hook in" in result.stdout and "load-plugins evil_plugin" in result.stdout
    assert "[flake8:local-plugins]" in result.stdout


PRE_COMMIT = """\
exclude: |
  (?x)
  ^addons/shop/legacy/|
  /static/lib/
repos:
  - repo: https://github.com/OCA/odoo-pre-commit-hooks
    rev: v0.0.25
    hooks:
      - id: oca-checks-odoo-module
        args: ["--disable=xml-header-wrong,prefer-readme-rst"]
      - id: oca-checks-po
        args:
          - --disable
          - po-pretty-format
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.1.3
    hooks:
      - id: ruff
        args: [--fix, --exit-non-zero-on-fix]
  - repo: https://github.com/OCA/pylint-odoo
    rev: v9.0.4
    hooks:
      - id: pylint_odoo
        args:
          - --rcfile=tools/pylintrc
          - --disable=print-used
          - --valid-odoo-versions=17.0
"""


def test_pre_commit_selections_are_read(tmp_path: Path) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(PRE_COMMIT, encoding="utf-8")
    read = read_pre_commit(config)
    assert read.pylint_rcfiles == (tmp_path / "tools" / "pylintrc",)
    assert read.pylint_args == ("--disable=print-used", "--valid-odoo-versions=17.0")
    assert read.hooks_disabled == {"xml-header-wrong", "prefer-readme-rst", "po-pretty-format"}
    assert read.python_linter == "ruff"
    assert read.exclude is not None
    assert read_pre_commit(None).hooks_disabled == {"po-pretty-format"}  # OCA's template default


def test_check_applies_the_repository_pre_commit(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    (repo / ".pre-commit-config.yaml").write_text(PRE_COMMIT, encoding="utf-8")
    (repo / "tools").mkdir()
    (repo / "tools" / "pylintrc").write_text(
        "[MASTER]\nload-plugins=pylint_odoo\n"
        "[MESSAGES CONTROL]\ndisable=all\nenable=print-used,missing-readme\n",
        encoding="utf-8",
    )
    (repo / ".ruff.toml").write_text("fix = true\n[lint]\nselect = ['F401']\n", encoding="utf-8")
    legacy = repo / "addons" / "shop" / "legacy"
    legacy.mkdir()
    (legacy / "old.py").write_text("import sys\n", encoding="utf-8")
    before = (repo / "addons" / "shop" / "models.py").read_text(encoding="utf-8")
    args = ["check", "--addons-path", str(repo / "addons"), "--checks", "pylint,flake8", "--format", "json"]
    payload = json.loads(run_cli(args, repo, tmp_path / "c").stdout)
    found = {(f["source"], f["code"], f["path"]) for f in payload["findings"]}
    assert ("ruff", "F401", "shop/models.py") in found  # ruff ran with the repository's selection
    assert not any(code == "E501" for _, code, _ in found)  # not selected in .ruff.toml
    assert not any(path.startswith("shop/legacy/") for _, _, path in found)  # pre-commit exclude
    assert not any(code == "W8116" for _, code, _ in found)  # --disable=print-used
    assert any(code == "C8112" for _, code, _ in found)  # the rcfile the pre-commit names
    assert (repo / "addons" / "shop" / "models.py").read_text(encoding="utf-8") == before  # never fixed
    note = next(n for n in payload["notes"] if n.startswith("configuration:"))
    assert ".pre-commit-config.yaml" in note and "ruff" in note and "OCA grading" in note
    assert not (repo / ".ruff_cache").exists()


def test_no_configuration_follows_oca_template(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    po = repo / "addons" / "shop" / "i18n"
    po.mkdir()
    (po / "fr.po").write_text(
        textwrap.dedent(
            """\
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"

            #. module: shop
            msgid "B"
            msgstr "B"

            #. module: shop
            msgid "A"
            msgstr "A"
            """
        ),
        encoding="utf-8",
    )
    args = ["check", "--addons-path", str(repo / "addons"), "--checks", "oca-hooks", "--format", "json"]
    payload = json.loads(run_cli(args, repo, tmp_path / "c").stdout)
    assert not [f for f in payload["findings"] if f["code"] == "po-pretty-format"]
    assert any("OCA template defaults" in n for n in payload["notes"])


def test_no_configuration_lints_python_as_the_template_does_for_the_series(tmp_path: Path) -> None:
    """OCA's template runs ruff (with bugbear, isort, pyupgrade...) from 17.0 and flake8 before."""
    code = "def f(items=[]):\n    return items\n"
    found = {}
    for series in ("16.0", "17.0"):
        repo = tmp_path / series
        (repo / ".git").mkdir(parents=True)
        _module(repo / "addons", "shop", ["base"], [], {"models.py": code})
        manifest = repo / "addons" / "shop" / "__manifest__.py"
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("17.0.", f"{series}."), "utf-8")
        args = ["check", "--addons-path", str(repo / "addons"), "--checks", "flake8", "--format", "json"]
        payload = json.loads(run_cli(args, repo, tmp_path / f"c{series}").stdout)
        findings = [f for f in payload["findings"] if f["path"].endswith("models.py")]
        found[series] = {(f["source"], f["code"], f["severity"]) for f in findings}
        note = next(n for n in payload["notes"] if n.startswith("configuration:"))
        assert "OCA template defaults" in note
    assert found["16.0"] == set()  # flake8 without bugbear, as the 16.0 template's flake8 runs here
    assert found["17.0"] == {("ruff", "B006", "warning")}  # a mutable default argument
