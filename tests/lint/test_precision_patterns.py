"""Patterns of real OCA repositories that were false findings (or a missed failure) before."""

from __future__ import annotations

import json
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint._grading import default_severity
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import XML_HEAD, _module, _static

PRE_COMMIT = """repos:
  - repo: https://github.com/OCA/pylint-odoo
    rev: v7.0.5
    hooks:
      - id: pylint_odoo
        args: ["--rcfile=.pylintrc-mandatory"]
"""
MANDATORY = """[MASTER]
load-plugins=pylint_odoo

[MESSAGES CONTROL]
disable=all
enable=print-used,
    except-pass
"""
CODE = """from odoo import models


class Partner(models.Model):
    _inherit = "res.partner"

    def go(self):
        try:
            print("debugging")
        except ValueError:  # pylint: disable=W7938
            pass
        try:
            return 1
        # pylint: disable=W7938
        except KeyError:
            pass
"""


def _oca_repo(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".pre-commit-config.yaml").write_text(PRE_COMMIT, encoding="utf-8")
    (root / ".pylintrc-mandatory").write_text(MANDATORY, encoding="utf-8")
    (root / ".pylintrc").write_text(MANDATORY, encoding="utf-8")
    addons = root / "addons"
    _module(addons, "shop", ["base"], [], {"models.py": CODE})
    (addons / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    return addons


def test_older_pin_keeps_its_mandatory_messages_and_its_old_ids(tmp_path: Path) -> None:
    """The repository pins pylint-odoo 7.0.5: a print() its mandatory list names still fails the
    check as OCA's CI fails the commit, and ``disable=W7938`` (except-pass's id in that release,
    W8138 in ours) silences except-pass on the line it ends and in the block below it."""
    addons = _oca_repo(tmp_path)
    args = ["check", "--addons-path", str(addons), "--checks", "pylint", "--format", "json"]
    result = run_cli(args, tmp_path, tmp_path / "c")
    found = [(f["symbol"], f["line"], f["severity"]) for f in json.loads(result.stdout)["findings"]]
    assert found == [("print-used", 9, "error")], result.stdout
    assert result.returncode == 1


def _f(source: str, code: str) -> Finding:
    return Finding(source=source, code=code, symbol=code, module="m", message="x")


def test_unused_global_is_style() -> None:
    """F824 (pyflakes 3.3: a ``global`` never assigned) is dead code, not a likely bug."""
    assert default_severity(_f("flake8", "F824")) == "info"
    assert default_severity(_f("ruff", "F824")) == "info"


FUNCTION_DATA = (
    XML_HEAD
    + """<odoo>
    <function model="res.partner" name="_install_default_tags"/>
</odoo>
"""
)
USES_IT = (
    XML_HEAD
    + """<odoo>
    <record id="p" model="res.partner">
        <field name="category_id" eval="[(4, ref('shop.tag_created_by_function'))]"/>
    </record>
</odoo>
"""
)


def test_ids_a_function_call_may_create_are_a_warning(tmp_path: Path) -> None:
    """An id no record defines, but a <function> call in an earlier data file may create at load
    time: not a certain install failure."""
    files = {"data/a.xml": FUNCTION_DATA, "data/b.xml": USES_IT}
    _module(tmp_path, "shop", ["base"], ["data/a.xml", "data/b.xml"], files)
    found = [(f.code, f.severity) for f in _static(tmp_path, "shop", "18.0") if f.code == "xml-id-undefined"]
    assert found == [("xml-id-undefined", "warning")]
    # Without the function call, the same reference is the install error it is.
    _module(tmp_path / "plain", "shop", ["base"], ["data/b.xml"], {"data/b.xml": USES_IT})
    found = [(f.code, f.severity) for f in _static(tmp_path / "plain", "shop", "18.0")]
    assert ("xml-id-undefined", "error") in found


def test_an_empty_addons_root_passes_with_a_note(tmp_path: Path) -> None:
    """A branch with no module yet: the gate passes and says why nothing was checked."""
    empty = tmp_path / "addons"
    empty.mkdir()
    result = run_cli(["check", "--addons-path", str(empty)], tmp_path, tmp_path / "c")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no Odoo module found in the addons roots" in result.stdout


def test_new_only_keeps_a_consequence_on_an_unchanged_line(tmp_path: Path) -> None:
    """Deleting a model's access rule leaves the error on its untouched ``_name`` line: new-only
    compares the static findings' fingerprints with the base revision's, not only changed lines."""
    import git

    root = tmp_path / "repo"
    model = "from odoo import models\n\n\nclass Book(models.Model):\n    _name = 'x.book'\n"
    model += "    _description = 'Book'\n"
    acl = "id,name,model_id:id,group_id:id,perm_read,perm_write,perm_create,perm_unlink\n"
    acl_row = "access_x_book,x.book,model_x_book,base.group_user,1,1,1,1\n"
    files = {"models.py": model, "security/ir.model.access.csv": acl + acl_row}
    _module(root / "addons", "shop", ["base"], ["security/ir.model.access.csv"], files)
    (root / "addons" / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    repo = git.Repo.init(root)
    repo.git.add(A=True)
    env = {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    repo.git.commit(m="with its access rule", author="t <t@example.com>", env=env)
    (root / "addons" / "shop" / "security" / "ir.model.access.csv").write_text(acl, encoding="utf-8")
    args = ["check", "--addons-path", str(root / "addons"), "--checks", "static", "--format", "json"]
    result = run_cli([*args, "--new-only", "--base", "HEAD"], root, tmp_path / "c")
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(result.stdout)["findings"]]
    assert ("missing-access-rule", "shop/models.py", 4) in found, result.stdout
    assert result.returncode == 1
    # A finding the base already had stays hidden when its line is untouched.
    repo.git.add(A=True)
    repo.git.commit(m="without it", author="t <t@example.com>", env=env)
    again = run_cli([*args, "--new-only", "--base", "HEAD"], root, tmp_path / "c")
    assert json.loads(again.stdout)["findings"] == [] and again.returncode == 0, again.stdout
