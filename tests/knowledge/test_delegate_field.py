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


def test_an_inherits_key_named_by_an_earlier_class_attribute_is_read() -> None:
    """OCA's l10n_br_account 19.0: ``_inherits = {_fiscal_decorator_model: "fiscal_document_id"}``
    after ``_fiscal_decorator_model = "l10n_br_fiscal.document"``, as Python evaluates the body."""
    source = (
        b"from odoo import models\n\n\nclass AccountMove(models.Model):\n"
        b'    _inherit = "account.move"\n    _decorated = "l10n_br_fiscal.document"\n'
        b'    _inherits = {_decorated: "fiscal_document_id", unknown_name: "x_id"}\n'
    )
    (cls,) = parse_python(source, "br/models/move.py", "br").models
    assert cls.inherits == ()  # a name bound nowhere in the body: not a literal, nothing claimed
    fixed = source.replace(b', unknown_name: "x_id"', b"")
    (cls,) = parse_python(fixed, "br/models/move.py", "br").models
    assert cls.inherits == (("l10n_br_fiscal.document", "fiscal_document_id"),)
