"""Relations 17.0 turned around between two core models (stock.move.scrap_ids / stock.scrap.move_id
became stock.move.scrap_id / stock.scrap.move_ids), read in the bundled field lists: renamed only
where the code certainly holds records of that model."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.migrate import migrate
from odoo_tools.migrate.passes.swapped_relations import swapped_relations

TEST = """from odoo.tests.common import TransactionCase


class TestScrap(TransactionCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.Scrap = cls.env["stock.scrap"]

    def test_scrap(self):
        picking = self.env["stock.picking"].create({{}})
        scrap = self.Scrap.create({{"picking_id": picking.id}})
        moves = picking.move_ids.filtered(lambda m: m.state == "done")
        self.assertEqual(moves.scrap_ids.ids, [scrap.id])
        move = scrap.move_id
        self.assertEqual(moves.mapped("scrap_ids.name"), [scrap.name])
        for line in scrap.move_id.move_line_ids:
            self.assertEqual(line.move_id, move)
        invoice_line = self.env["account.move.line"].browse(1)
        self.assertTrue(invoice_line.move_id)
        {other}.move_id = move
"""
MODEL = """from odoo import fields, models


class StockScrap(models.Model):
    _inherit = "stock.scrap"

    def _check(self):
        for scrap in self:
            return scrap.move_id.state, self.move_id


class Task(models.Model):
    _inherit = "project.task"

    scrap_ids = fields.One2many("stock.scrap", "task_id")

    def _scraps(self):
        return self.scrap_ids
"""


def _module(tmp_path: Path, other: str = "scrap") -> Path:
    module = tmp_path / "scrapping"
    (module / "tests").mkdir(parents=True)
    (module / "models").mkdir()
    (module / "__manifest__.py").write_text("{'name': 's', 'version': '16.0.1.0.0', 'depends': ['stock']}\n")
    (module / "tests" / "test_scrap.py").write_text(TEST.format(other=other))
    (module / "models" / "stock.py").write_text(MODEL)
    return module


def test_the_relations_are_read_in_both_series_lists() -> None:
    assert swapped_relations("16.0", "17.0") == {
        ("stock.move", "scrap_ids"): "scrap_id",
        ("stock.scrap", "move_id"): "move_ids",
    }
    assert swapped_relations("17.0", "18.0") == {}


def test_reads_are_renamed_where_the_model_is_certain(tmp_path: Path) -> None:
    module = _module(tmp_path, other="invoice_line")
    [migrated] = migrate([module], "17.0", write=True).modules
    text = (module / "tests" / "test_scrap.py").read_text()
    assert text == TEST.format(other="invoice_line").replace(
        "moves.scrap_ids.ids", "moves.scrap_id.ids"
    ).replace("move = scrap.move_id\n", "move = scrap.move_ids\n").replace(
        '"scrap_ids.name"', '"scrap_id.name"'
    ).replace("scrap.move_id.move_line_ids", "scrap.move_ids.move_line_ids")
    # the lines' and the invoice line's move_id are other models' fields; a module's own field stays
    assert "line.move_id, move" in text and "invoice_line.move_id" in text
    model = (module / "models" / "stock.py").read_text()
    assert model == MODEL.replace("scrap.move_id.state, self.move_id", "scrap.move_ids.state, self.move_ids")
    assert migrated.steps[0].rules_applied["swapped-relation"] == 6
    lines = sorted(f.line or 0 for f in migrated.findings if f.code == "swapped-relation")
    assert lines == [9, 9, 14, 15, 16, 17]


def test_a_written_relation_is_left_with_an_error(tmp_path: Path) -> None:
    module = _module(tmp_path)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert "        scrap.move_id = move\n" in (module / "tests" / "test_scrap.py").read_text()
    [error] = [f for f in migrated.findings if f.severity == "error" and f.code == "swapped-relation"]
    assert error.line == 21 and "move_ids" in error.message


def test_a_name_bound_to_two_models_is_not_renamed(tmp_path: Path) -> None:
    module = _module(tmp_path, other="invoice_line")
    test = module / "tests" / "test_scrap.py"
    test.write_text(test.read_text() + "        scrap = self.env['stock.move.line']\n")
    migrate([module], "17.0", write=True)
    text = test.read_text()
    assert "move = scrap.move_id\n" in text and "scrap.move_id.move_line_ids" in text
    assert "moves.scrap_id.ids" in text  # moves is still certain
