"""Odoo 20.0 through ``check``: a module written the 20.0 way passes; the same module written the
19.0 way gets each 20.0 finding at its line; a 20.0 access file on 19.0 is what it is there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from odoo_tools.errors import InvalidInput
from odoo_tools.series import SUPPORTED_SERIES, is_before, next_series, previous_series
from tests.lint.conftest import REPO, run_cli

FIXTURES = REPO / "fixtures" / "series_20"


def _check(tmp_path: Path, variant: str, version: str = "20.0.1.0.0") -> tuple[int, list[dict[str, object]]]:
    addons = tmp_path / variant
    shutil.copytree(FIXTURES / variant, addons)
    manifest = addons / "library_shelf" / "__manifest__.py"
    manifest.write_text(manifest.read_text().replace("20.0.1.0.0", version))
    report = tmp_path / "report.json"
    args = ["check", "--addons-path", str(addons), "--format", "json", "-o", str(report)]
    result = run_cli(args, tmp_path, tmp_path / "cache")
    assert "Traceback" not in result.stdout + result.stderr
    findings = json.loads(report.read_text())["findings"]
    return result.returncode, findings


def _static(findings: list[dict[str, object]]) -> list[tuple[str, str, object, str]]:
    return sorted(
        (str(f["code"]), str(f["path"]).split("library_shelf/")[1], f["line"], str(f["severity"]))
        for f in findings
        if f["source"] == "static"
    )


def test_a_module_written_the_20_way_passes(tmp_path: Path) -> None:
    code, findings = _check(tmp_path, "clean")
    assert code == 0, findings
    assert [f for f in findings if f["severity"] == "error"] == []
    assert _static(findings) == []


def test_the_19_way_on_20_is_found_at_each_line(tmp_path: Path) -> None:
    code, findings = _check(tmp_path, "old_style")
    assert code == 1
    assert _static(findings) == [
        ("access-model-unknown", "security/ir.model.access.csv", 2, "error"),
        ("access-model-unknown", "security/shelf_rules.xml", 3, "error"),
        ("missing-access-rule", "models/shelf.py", 4, "error"),
        ("missing-access-rule", "models/shelf.py", 18, "error"),
        ("removed-filter-end-month", "views/shelf_views.xml", 38, "error"),
        ("removed-filter-start-month", "views/shelf_views.xml", 38, "error"),
        ("removed-registry-clear-cache", "models/shelf.py", 15, "error"),
        ("renamed-route-readonly", "controllers/main.py", 5, "warning"),
        ("renamed-type-base64", "data/shelf_data.xml", 11, "warning"),
        ("replaced-fontawesome-icon", "views/shelf_views.xml", 10, "warning"),
        ("replaced-fontawesome-icon", "views/shelf_views.xml", 21, "warning"),
        ("replaced-t-esc", "data/shelf_data.xml", 4, "warning"),
        ("tuple-rec-names-search", "models/shelf.py", 7, "info"),
    ]
    hints = {str(f["code"]): str(f.get("hint", "")) for f in findings}
    assert "security/ir.access.csv" in hints["missing-access-rule"]
    assert "id,name,model_id,group_id/id,operation,domain" in hints["access-model-unknown"]


def test_the_19_way_on_19_has_none_of_the_20_findings(tmp_path: Path) -> None:
    _, findings = _check(tmp_path, "old_style", "19.0.1.0.0")
    assert _static(findings) == []


def test_a_20_access_file_on_19_is_an_unknown_model(tmp_path: Path) -> None:
    code, findings = _check(tmp_path, "clean", "19.0.1.0.0")
    assert code == 1
    assert _static(findings) == [
        ("access-model-unknown", "security/ir.access.csv", 2, "error"),
        ("missing-access-rule", "models/shelf.py", 4, "error"),
        ("missing-access-rule", "models/shelf.py", 18, "error"),
    ]
    hints = {str(f["code"]): str(f.get("hint", "")) for f in findings}
    assert "security/ir.model.access.csv" in hints["missing-access-rule"]


def test_check_refuses_an_unsupported_odoo_series_even_when_the_manifests_decide(tmp_path: Path) -> None:
    addons = tmp_path / "clean"
    shutil.copytree(FIXTURES / "clean", addons)
    for asked in ("15.0", "21.0"):
        result = run_cli(
            ["check", "--addons-path", str(addons), "--odoo-series", asked], tmp_path, tmp_path / "c"
        )
        assert result.returncode == 2, result.stdout
        assert (
            f"Odoo series '{asked}' is not supported: supported are 16.0, 17.0, 18.0, 19.0, 20.0"
            in result.stderr
        )
        assert "Traceback" not in result.stderr


def test_a_project_on_a_series_after_20_is_checked_and_told_what_is_not(tmp_path: Path) -> None:
    code, findings = _check(tmp_path, "clean", "21.0.1.0.0")
    assert code == 0 and _static(findings) == []
    result = run_cli(["check", "--addons-path", str(tmp_path / "clean")], tmp_path, tmp_path / "cache")
    assert "Odoo 21.0 is not a supported series (16.0, 17.0, 18.0, 19.0, 20.0)" in result.stdout


def test_next_and_previous_series_follow_the_registry() -> None:
    assert [next_series(s) for s in SUPPORTED_SERIES] == [*SUPPORTED_SERIES[1:], None]
    assert [previous_series(s) for s in SUPPORTED_SERIES] == [None, *SUPPORTED_SERIES[:-1]]
    assert next_series("saas~17.2") == "18.0"
    assert is_before("17.0", "18.0") and is_before("saas~17.2", "18.0") and is_before("9.0", "10.0")
    assert not is_before("18.0", "18.0") and not is_before("19.0", "18.0")
    with pytest.raises(InvalidInput, match="supported are"):
        next_series("15.0")
