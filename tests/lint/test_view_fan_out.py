"""An inheriting view of 20,000 specs on a model with a wide x2many fan-out: each spec's anchor
candidates (the model and the comodels of its inline sub-views, two levels down) were recomputed
per spec, a quadratic cost; they are cached per file and bounded. An ``_inherit`` cycle across
two modules terminates (issue 35, item 9)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from assista_mcp.cli import main

WIDE = 80  # x2many fields of the hub, and of each of its comodels
SPECS = 20_000


def _module(root: Path, name: str, python: str, views: str, depends: tuple[str, ...] = ("base",)) -> None:
    folder = root / name
    (folder / "views").mkdir(parents=True)
    (folder / "models.py").write_text(python)
    (folder / "__init__.py").write_text("from . import models\n")
    (folder / "views" / "v.xml").write_text(views)
    manifest = {"name": name, "version": "17.0.1.0.0", "depends": list(depends), "data": ["views/v.xml"]}
    (folder / "__manifest__.py").write_text(repr(manifest) + "\n")


def _record(xml_id: str, model: str, arch: str, parent: str = "") -> str:
    inherit = f'<field name="inherit_id" ref="{parent}"/>' if parent else ""
    return (
        f'<record id="{xml_id}" model="ir.ui.view"><field name="model">{model}</field>{inherit}'
        f'<field name="arch" type="xml">{arch}</field></record>'
    )


def test_a_view_of_20000_specs_on_a_wide_fan_out_is_checked_in_linear_time(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    python = "from odoo import fields, models\n\n\nclass Hub(models.Model):\n    _name = 'hub'\n"
    python += "    name = fields.Char()\n" + "".join(
        f"    l{i}_ids = fields.One2many('c{i}', 'hub_id')\n" for i in range(WIDE)
    )
    for i in range(WIDE):
        python += f"\n\nclass C{i}(models.Model):\n    _name = 'c{i}'\n    hub_id = fields.Many2one('hub')\n"
        python += "".join(f"    k{j}_ids = fields.One2many('c{j}', 'hub_id')\n" for j in range(WIDE))
    specs = "".join(
        f'<field name="name" position="after"><field name="l{i % WIDE}_ids"/></field>' for i in range(SPECS)
    )
    specs += '<field name="nowhere" position="after"/>'  # still judged: no candidate has it
    views = "<odoo>" + _record("form", "hub", '<form><field name="name"/></form>')
    views += _record("ext", "hub", f"<data>{specs}</data>", parent="form") + "</odoo>\n"
    _module(tmp_path / "addons", "wide", python, views)
    started = time.process_time()  # every thread's CPU: the machine's load does not count
    code = main(["check", "--addons-path", str(tmp_path / "addons"), "--checks", "static", "--no-cache"])
    spent = time.process_time() - started
    out = capsys.readouterr().out
    assert code == 1
    assert 'error [static view-anchor-unknown] Field "nowhere" cannot be located' in out, out[-2000:]
    assert spent < 12, spent


def test_an_inherit_cycle_across_modules_terminates(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = "from odoo import fields, models\n\n\n"
    one = head + "class A(models.Model):\n    _name = 'a.a'\n    _inherit = 'b.b'\n"
    one += "    x_ids = fields.One2many('b.b', 'a_id')\n"
    two = head + "class B(models.Model):\n    _name = 'b.b'\n    _inherit = 'a.a'\n"
    two += "    a_id = fields.Many2one('a.a')\n    y_ids = fields.One2many('a.a', 'x_ids')\n"
    arch = '<form><field name="x_ids"><tree><field name="y_ids"/></tree></field><field name="nope"/></form>'
    _module(tmp_path / "addons", "one", one, "<odoo>" + _record("f1", "a.a", arch) + "</odoo>\n")
    _module(tmp_path / "addons", "two", two, "<odoo>" + _record("f2", "b.b", arch) + "</odoo>\n", ("one",))
    code = main(["check", "--addons-path", str(tmp_path / "addons"), "--checks", "static", "--no-cache"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and code in (0, 1), captured.err
