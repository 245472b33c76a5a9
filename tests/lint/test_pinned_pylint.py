"""A repository pinning an older pylint-odoo fails only where that release would fail (issue 30).

OCA/hr 17.0 pins pylint-odoo v9.0.4 and its ``.pylintrc-mandatory`` names
attribute-string-redundant; 9.0.4 compares ``string=`` with ``field_name.replace("_", " ").title()``
("Category Id") and never fires on ``category_id = fields.Many2one(..., string="Category")``, ours
(10.x) does. These tests install the pinned release from the package index once per module run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import _module

MANDATORY = """[MASTER]
load-plugins=pylint_odoo

[MESSAGES CONTROL]
disable=all
enable=attribute-string-redundant,
    print-used
"""
CODE = """from odoo import fields, models


class Employee(models.Model):
    _inherit = "res.partner"

    category_id = fields.Many2one("res.partner.category", string="Category")
    name = fields.Char(string="Name")

    def go(self):
        print("debugging")
"""


def _repo(root: Path, rev: str) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n"
        f"    rev: {rev}\n    hooks:\n      - id: pylint_odoo\n"
        "        args: [--rcfile=.pylintrc-mandatory]\n",
        encoding="utf-8",
    )
    (root / ".pylintrc-mandatory").write_text(MANDATORY, encoding="utf-8")
    addons = root / "addons"
    _module(addons, "hr_thing", ["base"], [], {"models.py": CODE})
    (addons / "hr_thing" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    return addons


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the module: the pinned release is installed once."""
    return tmp_path_factory.mktemp("pinned-cache")


def _graded(stdout: str) -> list[tuple[str, int, str]]:
    return sorted((f["symbol"], f["line"], f["severity"]) for f in json.loads(stdout)["findings"])


def test_a_message_the_pinned_release_does_not_raise_on_that_line_does_not_fail(
    tmp_path: Path, shared_cache: Path
) -> None:
    addons = _repo(tmp_path, "v9.0.4")
    args = ["check", "--addons-path", str(addons), "--checks", "pylint", "--format", "json", "--no-cache"]
    result = run_cli(args, tmp_path, shared_cache)
    assert _graded(result.stdout) == [
        ("attribute-string-redundant", 7, "warning"),  # 9.0.4 says nothing here: OCA's CI passes
        ("attribute-string-redundant", 8, "error"),  # "Name" == "name".title(): both releases fail it
        ("print-used", 11, "error"),
    ], result.stdout + result.stderr
    said = {f["line"]: f["message"] for f in json.loads(result.stdout)["findings"]}
    assert "pylint-odoo 9.0.4, which the repository pins, does not report it" in said[7]
    assert result.returncode == 1
    # The same pin with only the false message left: the gate passes.
    models = addons / "hr_thing" / "models.py"
    models.write_text(
        CODE.replace('    name = fields.Char(string="Name")\n', "").replace(
            '        print("debugging")\n', "        return 1\n"
        ),
        encoding="utf-8",
    )
    result = run_cli(args, tmp_path, shared_cache)
    assert _graded(result.stdout) == [("attribute-string-redundant", 7, "warning")], result.stdout
    assert result.returncode == 0


def test_a_pin_that_cannot_be_installed_fails_nothing_it_might_not_raise(tmp_path: Path) -> None:
    """No release 9.0.999 exists (nor can any be installed offline): which lines it would fail
    cannot be told, so none of its mandatory messages fails the gate; each says why."""
    addons = _repo(tmp_path, "v9.0.999")
    args = ["check", "--addons-path", str(addons), "--checks", "pylint", "--format", "json"]
    result = run_cli(args, tmp_path, tmp_path / "c")
    assert {severity for _, _, severity in _graded(result.stdout)} == {"warning"}, result.stdout
    messages = [f["message"] for f in json.loads(result.stdout)["findings"]]
    assert all("pins pylint-odoo 9.0.999, which could not be run here" in m for m in messages)
    assert result.returncode == 0
