"""Python and models nested deeper than a recursive reader can take are findings on that file, or
resolved with a loop, never a traceback, and the other modules are checked (issue 35, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.cli import main


def _module(root: Path, name: str, files: dict[str, str], depends: tuple[str, ...] = ("base",)) -> None:
    folder = root / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    data = [rel for rel in files if rel.endswith(".xml")]
    manifest = {"name": name, "version": "17.0.1.0.0", "depends": list(depends), "data": data}
    (folder / "__manifest__.py").write_text(repr(manifest) + "\n")
    if "__init__.py" not in files:
        (folder / "__init__.py").write_text("from . import models\n" if "models.py" in files else "")


def _view(model: str, arch: str) -> str:
    return (
        f'<odoo><record id="v" model="ir.ui.view"><field name="model">{model}</field>'
        f'<field name="arch" type="xml">{arch}</field></record></odoo>\n'
    )


def _check(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["check", "--addons-path", str(root), "--checks", "static", "--no-cache"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and code == 1, captured.out + captured.err
    return captured.out


def test_a_5000_deep_unary_chain_is_a_finding_on_its_file(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "from odoo import models\n\n\nclass U(models.Model):\n    _inherit = 'res.partner'\n"
    deep += "    x = " + "-" * 5000 + "1\n"
    _module(tmp_path / "addons", "unary", {"models.py": deep})
    unknown = '<odoo><record id="w" model="no.such.model"><field name="name">w</field></record></odoo>'
    _module(tmp_path / "addons", "other", {"v.xml": unknown + "\n"})
    out = _check(tmp_path / "addons", capsys)
    assert (
        "unary/models.py: error [index python-syntax] unary/models.py does not parse: it nests too deeply"
        in out
    )
    assert "other/v.xml:1: error [static record-model-unknown]" in out


def test_a_1500_deep_inherit_chain_is_resolved(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain = "from odoo import fields, models\n\n\nclass M0(models.Model):\n    _name = 'm.0'\n"
    chain += "    x = fields.Char()\n"
    for i in range(1, 1500):
        chain += f"\n\nclass M{i}(models.Model):\n    _name = 'm.{i}'\n    _inherit = 'm.{i - 1}'\n"
    _module(tmp_path / "addons", "chain", {"models.py": chain})
    arch = '<form><field name="x"/><field name="nope"/></form>'  # x comes 1,500 parents up
    _module(tmp_path / "addons", "chain_view", {"v.xml": _view("m.1499", arch)}, ("chain",))
    out = _check(tmp_path / "addons", capsys)
    assert 'chain_view/v.xml:1: error [static view-field-unknown] Field "nope"' in out
    assert 'Field "x"' not in out


def test_a_related_path_leading_back_to_itself_terminates(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    python = (
        "from odoo import fields, models\n\n\nclass A(models.Model):\n"
        "    _name = 'a.a'\n    _description = 'A'\n"
        "    p_id = fields.Many2one(related='q_id')\n    q_id = fields.Many2one(related='p_id')\n"
        "    r = fields.Char(related='p_id.name')\n"
    )
    arch = '<form><field name="p_id"><tree><field name="zz"/></tree></field><field name="nope"/></form>'
    _module(tmp_path / "addons", "loop", {"models.py": python, "v.xml": _view("a.a", arch)})
    out = _check(tmp_path / "addons", capsys)
    assert 'loop/v.xml:1: error [static view-field-unknown] Field "nope"' in out
    assert 'Field "zz"' not in out  # p_id's comodel cannot be told: nothing claimed about its sub-view


def test_ruff_crashing_on_one_module_still_lints_the_others(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ruff overflows its stack on a 5,000-deep expression and crashed the whole batch: every
    module of it was 'ruff failed'. Each module is tried again alone."""
    _module(
        tmp_path / "addons",
        "unary",
        {"x.py": "X = " + "-" * 5000 + "1\n", "__init__.py": "from . import x\n"},
    )
    _module(tmp_path / "addons", "tidy", {"y.py": "import os\n", "__init__.py": "from . import y\n"})
    argv = [
        "check",
        "--addons-path",
        str(tmp_path / "addons"),
        "--checks",
        "flake8",
        "--jobs",
        "1",
        "--no-cache",
    ]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 1
    assert "tidy/y.py:1:8: info [ruff F401 unused-import]" in out, out
    assert "linter-crashed" not in out.split("tidy", 1)[1].split("unary", 1)[0]
