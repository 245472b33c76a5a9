"""The project map: ranked, within budget, focus first."""

from __future__ import annotations

import pytest

from odoo_tools.errors import NotFound
from odoo_tools.index import ProjectIndex
from odoo_tools.index._project_map import estimate_tokens


def test_default_map_names_series_modules_models_views_and_menus(index: ProjectIndex) -> None:
    result = index.project_map()
    text = result.text
    assert text.startswith("# Odoo 17.0 project: 5 module(s)\n")
    assert "ghost_module (missing)" in text
    assert "model fleet.vehicle (Vehicle): license_plate*, driver_id->res.partner" in text
    assert "extends res.partner +vehicle_ids" in text
    assert "menus: Fleet, Vehicles->fleet_vehicle_action" in text
    assert "## base" not in text  # read-only core modules are only named as dependencies
    assert result.modules_omitted == []
    assert result.estimated_tokens == estimate_tokens(text) <= 1000
    # the application comes first when nothing is focused
    assert result.modules_shown[0] == "fleet_base"


def test_focus_module_comes_first_then_its_relatives(index: ProjectIndex) -> None:
    shown = index.project_map(focus=["fleet_auto"]).modules_shown
    assert shown[0] == "fleet_auto"
    assert shown.index("fleet_extra") < shown.index("bad_manifest")
    assert shown.index("fleet_base") < shown.index("broken_files")


@pytest.mark.parametrize("budget", [100, 150, 200, 400])
def test_budget_is_respected(index: ProjectIndex, budget: int) -> None:
    result = index.project_map(budget=budget)
    assert result.estimated_tokens <= budget
    assert len(result.text) <= budget * 4


def test_small_budget_degrades_detail_then_counts_the_rest(index: ProjectIndex) -> None:
    small = index.project_map(budget=100)
    full = index.project_map(budget=5000)
    assert len(small.text) < len(full.text)
    assert "license_plate*" not in small.text  # compact blocks drop the fields first
    assert set(small.modules_shown) | set(small.modules_omitted) == set(full.modules_shown)


def test_unknown_focus_is_an_error(index: ProjectIndex) -> None:
    with pytest.raises(NotFound, match="nope"):
        index.project_map(focus=["nope"])
