"""Severity: error = breaks install/upgrade/runtime or security; warning = likely bug or deprecated;
info = style. OCA's grading (mandatory = error) only with OCA's configuration or --profile oca."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from odoo_tools.findings import Finding
from odoo_tools.lint._grading import HooksRelease, default_severity, regrade
from tests.lint.conftest import run_cli
from tests.lint.test_static_checks import XML_HEAD, _module, _static

CODE = (
    "from odoo import fields, models\n"
    "import os\n\n\n"
    "class Thing(models.Model):\n"
    "    _inherit = 'res.partner'\n\n"
    "    name2 = fields.Char(string='Name2')\n\n"
    "    def go(self):\n"
    "        raise UserError('no')  # an undefined name: a latent NameError\n"
    "        x = 1    # noqa-less style problems everywhere; this line is long enough to pass eighty-eight\n"
)


def _repo(root: Path) -> Path:
    addons = root / "addons"
    _module(addons, "shop", ["base"], [], {"models.py": CODE})
    init = addons / "shop" / "__init__.py"
    init.write_text("from . import models\n", encoding="utf-8")
    return addons


def _by_code(stdout: str) -> dict[str, str]:
    return {f["code"]: f["severity"] for f in json.loads(stdout)["findings"]}


def test_default_grading_keeps_errors_for_what_breaks(tmp_path: Path) -> None:
    addons = _repo(tmp_path)
    args = ["check", "--addons-path", str(addons), "--checks", "pylint,flake8", "--format", "json"]
    result = run_cli(args, tmp_path, tmp_path / "c")
    graded = _by_code(result.stdout)
    assert graded["F821"] == "error" or graded.get("E0602") == "error"  # undefined UserError
    assert graded["E501"] == "info" and graded["F401"] == "info"  # style
    assert graded["W8113"] == "info"  # attribute-string-redundant
    assert result.returncode == 1
    # The same repository under OCA's grading: flake8's style is an error, as in OCA's CI.
    oca = run_cli([*args, "--profile", "oca"], tmp_path, tmp_path / "c")
    assert _by_code(oca.stdout)["E501"] == "error"


def test_oca_configuration_selects_oca_grading(tmp_path: Path) -> None:
    addons = _repo(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/OCA/pylint-odoo\n    rev: v9.0.0\n", encoding="utf-8"
    )
    args = ["check", "--addons-path", str(addons), "--checks", "flake8", "--format", "json"]
    graded = _by_code(run_cli(args, tmp_path, tmp_path / "c").stdout)
    assert graded["E501"] == "error"
    graded = _by_code(run_cli([*args, "--profile", "default"], tmp_path, tmp_path / "c").stdout)
    assert graded["E501"] == "info"


def _f(source: str, code: str, symbol: str = "", message: str = "x") -> Finding:
    return Finding(source=source, code=code, symbol=symbol or code, module="m", message=message)


def test_grading_table() -> None:
    assert default_severity(_f("pylint", "E8103", "sql-injection")) == "error"
    assert default_severity(_f("pylint", "E8102", "invalid-commit")) == "warning"
    assert default_severity(_f("pylint", "C8101", "manifest-required-author")) == "info"
    assert default_severity(_f("flake8", "E999")) == "error"
    assert default_severity(_f("flake8", "W605")) == "warning"
    assert default_severity(_f("ruff", "B006")) == "warning"  # a mutable default argument: a bug
    assert default_severity(_f("ruff", "B023")) == "warning"  # a closure over a loop variable
    assert default_severity(_f("ruff", "B009")) == "info"  # getattr(x, "name"): style
    assert default_severity(_f("ruff", "B007")) == "info"  # an unused loop variable: style
    assert default_severity(_f("oca-hooks", "xml-header-wrong")) == "info"
    assert default_severity(_f("oca-hooks", "po-pretty-format")) == "info"
    assert default_severity(_f("oca-hooks", "xml-syntax-error")) == "error"
    assert default_severity(_f("oca-hooks", "xml-deprecated-qweb-directive-15")) == "warning"
    key = _f("pylint", "C8103", "manifest-deprecated-key", 'Deprecated key "description" in manifest file')
    (graded,) = regrade([key], oca=False)
    assert graded.severity == "info" and "deprecated" not in graded.message.lower()


def test_attrs_in_inline_subview_is_a_warning_at_the_attribute_line(tmp_path: Path) -> None:
    view = (
        XML_HEAD
        + '<odoo>\n<record id="v" model="ir.ui.view">\n  <field name="model">res.partner</field>\n'
        + '  <field name="arch" type="xml">\n    <form>\n'
        + '      <field name="name"\n'
        + "             attrs=\"{'invisible': True}\"\n"
        + '             required="1"/>\n'
        + '      <field name="child_ids">\n        <list>\n'
        + '          <field name="name" attrs="{\'readonly\': True}"/>\n'
        + "        </list>\n      </field>\n    </form>\n  </field>\n</record>\n</odoo>\n"
    )
    _module(tmp_path, "x", ["base"], ["views/v.xml"], {"views/v.xml": view})
    found = sorted((f.line, f.severity) for f in _static(tmp_path, "x", "18.0") if f.code == "removed-attrs")
    assert found == [(8, "error"), (12, "warning")]


def test_undefined_name_in_a_script_the_module_never_imports_is_a_warning(tmp_path: Path) -> None:
    addons = _repo(tmp_path)
    script = addons / "shop" / "scripts" / "smoke.py"
    script.parent.mkdir()
    script.write_text("print(env['res.partner'].search_count([]))\n", encoding="utf-8")
    args = ["check", "--addons-path", str(addons), "--checks", "flake8", "--format", "json"]
    found = json.loads(run_cli(args, tmp_path, tmp_path / "c").stdout)["findings"]
    graded = {(f["path"], f["code"]): f["severity"] for f in found}
    assert graded[("shop/scripts/smoke.py", "F821")] == "warning"
    assert graded[("shop/models.py", "F821")] == "error"


def test_sql_formatted_with_record_ids_only_is_not_a_security_error(tmp_path: Path) -> None:
    code = (
        "from odoo import models\n\n\nclass P(models.Model):\n    _inherit = 'res.partner'\n\n"
        "    def ids(self):\n        company_id = self.env.company.id\n"
        "        self.env.cr.execute('SELECT 1 FROM x WHERE c = %s' % (company_id,))\n\n"
        "    def text(self, name):\n"
        "        self.env.cr.execute('SELECT 1 FROM x WHERE n = %s' % (name,))\n"
    )
    addons = tmp_path / "addons"
    _module(addons, "shop", ["base"], [], {"models.py": code})
    (addons / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    args = ["check", "--addons-path", str(addons), "--checks", "pylint", "--format", "json"]
    found = json.loads(run_cli(args, tmp_path, tmp_path / "c").stdout)["findings"]
    graded = sorted((f["line"], f["severity"]) for f in found if f["symbol"] == "sql-injection")
    assert graded == [(9, "warning"), (12, "error")]


QWEB = XML_HEAD + '<odoo>\n    <template id="t">\n        <span t-esc="o.name"/>\n    </template>\n</odoo>\n'


def _t_esc(root: Path, pin: str | None) -> dict[str, Any]:
    """The t-esc finding of a 17.0 module, in a repository whose pre-commit pins the OCA hooks
    at ``pin`` (None: no configuration at all)."""
    _module(root / "addons", "shop", ["base"], ["views/t.xml"], {"views/t.xml": QWEB})
    (root / ".git").mkdir()
    if pin is not None:
        (root / ".pre-commit-config.yaml").write_text(
            "repos:\n  - repo: https://github.com/OCA/odoo-pre-commit-hooks\n"
            f"    rev: {pin}\n    hooks:\n      - id: oca-checks-odoo-module\n",
            encoding="utf-8",
        )
    args = ["check", "--addons-path", str(root / "addons"), "--checks", "oca-hooks", "--format", "json"]
    result = run_cli(args, root, root / "cache")
    findings = json.loads(result.stdout)["findings"]
    (found,) = [f for f in findings if f["code"] == "xml-deprecated-qweb-directive-15"]
    return {"severity": found["severity"], "message": found["message"], "line": found["line"]}


def test_a_hooks_check_newer_than_the_ci_release_is_an_info(tmp_path: Path) -> None:
    """t-esc -> t-out is a check of the hooks 0.2.17+: a repository whose CI runs 0.0.25 (OCA's
    pin up to 17.0) never sees it, so it is no warning there; with no configuration, OCA's
    template pin for the series decides; a repository pinning a release that has it gets it."""
    pinned_old = _t_esc(tmp_path / "old", "v0.0.25")
    assert pinned_old["severity"] == "info" and pinned_old["line"] == 4
    assert "0.2.17+; the repository's pre-commit pins 0.0.25" in pinned_old["message"]
    template = _t_esc(tmp_path / "none", None)
    assert template["severity"] == "info" and "template for 17.0 pins 0.0.25" in template["message"]
    assert _t_esc(tmp_path / "new", "v0.2.27")["severity"] == "warning"


def test_hooks_release_grading_table() -> None:
    t_esc = _f("oca-hooks", "xml-deprecated-qweb-directive-15")
    old, new = HooksRelease((0, 0, 33), "pins"), HooksRelease((0, 2, 17), "pins")
    assert [f.severity for f in regrade([t_esc], oca=True, hooks=old)] == ["info"]
    assert [f.severity for f in regrade([t_esc], oca=False, hooks=new)] == ["warning"]
    duplicate = _f("oca-hooks", "xml-duplicate-record-id")  # in every release: never lowered
    assert [f.severity for f in regrade([duplicate], oca=False, hooks=old)] == ["error"]


def test_sql_with_ids_through_a_variable_an_fstring_or_a_numeric_placeholder(tmp_path: Path) -> None:
    """Seen on real custom addons: the query is formatted into a local first, or in an f-string,
    or through %d; only ids (or booleans) reach it, so pylint's sql-injection is no security error."""
    from odoo_tools.lint._sql_ids import ids_only

    code = (
        "def variable(self, company_id):\n"  # 1
        "    field = self.env['ir.model.fields']._get('x', 'y').id\n"
        "    sql = 'DELETE FROM d WHERE f = %s AND c = %d' % (field, company_id)\n"
        "    self._cr.execute(sql)\n"  # 4
        "\n"
        "def fstring(self, info):\n"
        "    address_id = False\n"
        "    if info.address_id:\n"
        "        address_id = info.address_id.id\n"
        "    self._cr.execute(f'DELETE FROM z WHERE a = {address_id}')\n"  # 10
        "\n"
        "def text(self, url):\n"
        "    sql = \"UPDATE m SET w = '%s' WHERE id = %d\" % (url, self.id)\n"
        "    self._cr.execute(sql)\n"  # 14
        "\n"
        "def text_fstring(self, name):\n"
        "    self._cr.execute(f\"SELECT 1 FROM x WHERE n = '{name}'\")\n"  # 17
    )
    path = tmp_path / "m.py"
    path.write_text(code, encoding="utf-8")
    assert [ids_only(path, line) for line in (4, 10, 14, 17)] == [True, True, False, False]


def test_assets_only_module_without_init_py_is_no_manifest_error(tmp_path: Path) -> None:
    """Seen on a real Odoo 18 custom repo: a module holding only a POS JS patch has no
    __init__.py; OCA's hook then says 'manifest-syntax-error', but the manifest is fine and Odoo
    loads the module. A manifest that really is broken stays an error."""
    addons = tmp_path / "addons"
    _module(addons, "pos_patch", ["point_of_sale"], [], {})
    (addons / "pos_patch" / "__init__.py").unlink()
    _module(addons, "broken", ["base"], [], {})
    (addons / "broken" / "__manifest__.py").write_text("{'name': 'broken',\n", encoding="utf-8")
    args = ["check", "--addons-path", str(addons), "--checks", "oca-hooks", "--format", "json"]
    found = json.loads(run_cli(args, tmp_path, tmp_path / "c").stdout)["findings"]
    graded = sorted((f["module"], f["severity"]) for f in found if f["code"] == "manifest-syntax-error")
    assert graded == [("broken", "error"), ("pos_patch", "info")]
