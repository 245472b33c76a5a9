"""A Many2one with delegate=True is an _inherits entry (OCA's brand: res.brand delegates to
res.partner through partner_id): its comodel's fields are the model's, as Odoo builds it."""

from __future__ import annotations

from odoo_tools.index import parse_python

SOURCE = b"""
from odoo import fields, models


class ResBrand(models.Model):
    _name = "res.brand"
    _description = "Brand"

    partner_id = fields.Many2one(comodel_name="res.partner", delegate=True, required=True)
    owner_id = fields.Many2one("res.users")
"""


def test_a_delegated_many2one_is_an_inherits_entry() -> None:
    data = parse_python(SOURCE, "brand/models/res_brand.py", "brand")
    (cls,) = data.models
    assert cls.inherits == (("res.partner", "partner_id"),)
    assert cls.inherits_line == 9
