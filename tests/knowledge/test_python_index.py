"""Python files: models, fields, methods by AST."""

from __future__ import annotations

from odoo_tools.index._python_index import parse_python

SOURCE = b"""
from odoo import api, fields, models


class Thing(models.Model):
    _name = "x.thing"
    _inherit = ["mail.thread", "x.thing"]
    _description = "Thing"
    _order = "seq, id"
    _rec_name = "code"
    _inherits = {"res.partner": "partner_id"}

    code = fields.Char("Code", required=True, readonly=True)
    partner_id = fields.Many2one("res.partner", "Partner", ondelete="cascade")
    line_ids = fields.One2many("x.line", "thing_id", "Lines")
    tag_ids = fields.Many2many(comodel_name="x.tag", string="Tags")
    kind = fields.Selection([("a", "A"), ("b", "B")], string="Kind")
    total = fields.Float(compute="_compute_total", store=True)
    email = fields.Char(related="partner_id.email")
    not_a_field = 3

    @api.depends("line_ids.amount")
    def _compute_total(self):
        pass

    @api.model
    @api.returns("self")
    def helper(self):
        pass


class Wizard(models.TransientModel):
    _name = "x.wizard"


class Mixin(models.AbstractModel):
    _inherit = "x.thing"


class NotAModel:
    pass
"""


def test_models_and_kinds() -> None:
    data = parse_python(SOURCE, "m/models/x.py", "m")
    assert [(c.model, c.kind, c.defines, c.line) for c in data.models] == [
        ("x.thing", "model", False, 5),  # _name in its own _inherit: an extension, as Odoo sees it
        ("x.wizard", "transient", True, 32),
        ("x.thing", "abstract", False, 36),
    ]
    thing = data.models[0]
    assert thing.parents == ("mail.thread",)
    assert thing.inherits == (("res.partner", "partner_id"),)
    assert (thing.description, thing.order, thing.rec_name) == ("Thing", "seq, id", "code")


def test_fields_are_typed_with_their_attributes() -> None:
    fields = {f.name: f for f in parse_python(SOURCE, "m/x.py", "m").models[0].fields}
    assert "not_a_field" not in fields
    code = fields["code"]
    assert (code.type, code.string, code.required, code.readonly, code.line) == (
        "Char",
        "Code",
        True,
        True,
        13,
    )
    assert (fields["partner_id"].comodel, fields["partner_id"].string) == ("res.partner", "Partner")
    lines = fields["line_ids"]
    assert (lines.comodel, lines.inverse_name, lines.string) == ("x.line", "thing_id", "Lines")
    assert (fields["tag_ids"].comodel, fields["tag_ids"].string) == ("x.tag", "Tags")
    assert fields["kind"].selection == ("a", "b")
    assert (fields["total"].compute, fields["total"].store) == ("_compute_total", True)
    assert fields["email"].related == "partner_id.email"
    assert fields["email"].store is None


def test_methods_and_decorators() -> None:
    methods = parse_python(SOURCE, "m/x.py", "m").models[0].methods
    assert [(m.name, m.decorators) for m in methods] == [
        ("_compute_total", ("api.depends('line_ids.amount')",)),
        ("helper", ("api.model", "api.returns('self')")),
    ]


def test_files_without_models_are_not_parsed_and_syntax_errors_are_findings() -> None:
    assert parse_python(b"def broken(:\n", "m/x.py", "m").findings == ()  # no model marker: skipped
    data = parse_python(b"class A(models.Model:\n    _name = 'a'\n", "m/x.py", "m")
    (finding,) = data.findings
    assert (finding.source, finding.code, finding.path, finding.line) == (
        "index",
        "python-syntax",
        "m/x.py",
        1,
    )
    assert data.models == ()


def test_null_bytes_do_not_crash() -> None:
    data = parse_python(b"_name = 1\x00\n", "m/x.py", "m")
    assert [f.code for f in data.findings] == ["python-syntax"]
