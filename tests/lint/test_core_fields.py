"""The bundled core fields lists per series and what one series removed from the one before."""

from __future__ import annotations

from odoo_tools.index import ModelClass
from odoo_tools.index._core_classes import decode
from odoo_tools.lint import RemovedField, core_difference, core_fields
from odoo_tools.lint._core_fields import difference_of


def test_lists_are_bundled_for_migrate() -> None:
    """Lists are bundled for 16.0-19.0 (migrate compares them; the static checks read the packs)."""
    for series in ("16.0", "17.0", "18.0", "19.0"):
        assert "res.partner" in core_fields(series)
    assert core_fields("12.0") == {}


def test_what_18_removed_from_17_in_the_real_lists() -> None:
    diff = core_difference("17.0", "18.0")
    assert diff.removed_field("account.move.line", "blocked") == RemovedField(
        "account.move.line", "blocked", "Boolean"
    )
    assert diff.removed_field("project.task.type", "description") == RemovedField(
        "project.task.type", "description", "Text"
    )
    assert diff.removed_field("project.task", "description") is None  # still there
    assert diff.removed_field("account.tax", "description") is None  # Char -> Html: changed
    assert diff.changed_fields["account.tax"]["description"] == ("Char", "Html")
    assert "ir.property" in diff.removed_models
    assert "res.partner" not in diff.removed_models


def _classes(models: dict[str, list[str]]) -> dict[str, ModelClass]:
    return {name: decode(name, encoded) for name, encoded in models.items()}


FIELDS = "keep:Char moved:Integer gone:Many2one:res.partner loose retyped:Char"


def test_a_field_moved_to_a_parent_or_bound_without_type_is_not_removed() -> None:
    before = _classes(
        {
            "x.a": ["", "", FIELDS, "_compute_z"],
            "x.gone": ["", "", "name:Char", ""],
            "x.mixin": ["", "", "", ""],
            "res.partner": ["", "", "name:Char", ""],
        }
    )
    after = _classes(
        {
            "x.a": ["x.a,x.mixin", "", "keep:Char retyped:Text", ""],
            "x.mixin": ["", "", "moved:Integer", ""],
            "res.partner": ["", "", "name:Char", ""],
        }
    )
    diff = difference_of("1.0", before, "2.0", after)
    assert diff.removed_models == frozenset({"x.gone"})
    assert diff.removed_fields == {"x.a": {"gone": RemovedField("x.a", "gone", "Many2one", "res.partner")}}
    assert diff.changed_fields == {"x.a": {"retyped": ("Char", "Text")}}
    assert diff.removed_methods == {"x.a": frozenset({"_compute_z"})}
    assert difference_of("1.0", before, "2.0", {}).removed_fields == {}
