"""Where an inheriting view's xpath lands, step by step, on the tiny 18.0 pack's models."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from odoo_tools.index import ModelResolver, PackClasses, Tables
from odoo_tools.lint._static.xpath_context import xpath_contexts
from odoo_tools.series import load_pack

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "series_packs" / "tiny_18.0.json"


@pytest.fixture(scope="module")
def resolver(tmp_path_factory: pytest.TempPathFactory) -> ModelResolver:
    path = tmp_path_factory.mktemp("pack") / "18.0.json.gz"
    path.write_bytes(gzip.compress(json.dumps(json.loads(TINY.read_text()), separators=(",", ":")).encode()))
    found = load_pack(path)
    assert found is not None
    closure = found.closure(["mail"])
    return ModelResolver(
        Tables(),
        closure,
        True,
        found.owners,
        frozenset(),
        frozenset(),
        PackClasses(found, closure),
        core_complete=True,
    )


def _candidates(resolver: ModelResolver, model: str, depth: int) -> tuple[str, ...]:
    """The model and its x2many comodels (one level is enough for these cases)."""
    found = resolver.model(model).fields.values()
    return tuple(
        dict.fromkeys([model, *(f.item.comodel for f in found if f.item.type in ("One2many", "Many2many"))])
    )


@pytest.mark.parametrize(
    ("expr", "position", "expected"),
    [
        # a field's parent is among its own model's nodes, not its comodel's
        ("//field[@name='partner_ids']/..", "after", ("mail.compose.message",)),
        ("//field[@name='partner_ids']/parent::div", "before", ("mail.compose.message",)),
        ("//field[@name='partner_ids']/ancestor::group", "inside", ("mail.compose.message",)),
        ("//field[@name='subject']/following-sibling::field[1]", "after", ("mail.compose.message",)),
        # below a field: its inline sub-view's model
        ("//field[@name='partner_ids']/list/field[@name='email']", "after", ("res.partner",)),
        ("//field[@name='partner_ids']//field[@name='email']", "before", ("res.partner",)),
        # inside a field element: new inline sub-views, not judged
        ("//field[@name='partner_ids']", "inside", ()),
        # a union or a function at the top: not followed
        ("//field[@name='subject'] | //field[@name='body']", "after", ()),
        # going up from a node of an inline sub-view may leave it: not judged
        ("//field[@name='partner_ids']/list/..", "after", ()),
    ],
)
def test_the_model_new_nodes_land_in(
    resolver: ModelResolver, expr: str, position: str, expected: tuple[str, ...]
) -> None:
    assert xpath_contexts(resolver, "mail.compose.message", expr, position, _candidates) == expected
