"""Series detection: Odoo source > manifests > setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.addons._manifest import Manifest, parse_manifest_text
from odoo_tools.addons._series import detect_series, series_from_manifests, series_from_release_file
from odoo_tools.errors import InvalidInput
from odoo_tools.series import normalize_series, series_major, series_of_version


def _odoo(tmp_path: Path, version_info: str) -> Path:
    (tmp_path / "odoo").mkdir()
    (tmp_path / "odoo" / "release.py").write_text(
        "RELEASE_LEVELS = [ALPHA, BETA] = ['alpha', 'beta']\nFINAL = 'final'\n"
        f"version_info = {version_info}\n"
        "version = '.'.join(str(s) for s in version_info[:2])\n",
        encoding="utf-8",
    )
    return tmp_path


def _manifest(version: str) -> Manifest:
    return parse_manifest_text(repr({"version": version}), "m", "m/__manifest__.py").manifest


def test_release_file_is_parsed_not_imported(tmp_path: Path) -> None:
    odoo = _odoo(tmp_path, "(17, 0, 0, FINAL, 0, '')")
    assert series_from_release_file(odoo / "odoo" / "release.py") == "17.0"


def test_saas_release(tmp_path: Path) -> None:
    odoo = _odoo(tmp_path, "('saas~17', 2, 0, FINAL, 0, '')")
    assert series_from_release_file(odoo / "odoo" / "release.py") == "saas~17.2"


def test_source_beats_manifests_and_setting(tmp_path: Path) -> None:
    odoo = _odoo(tmp_path, "(19, 0, 0, FINAL, 0, '')")
    info = detect_series(odoo, [_manifest("18.0.1.0.0")], "16.0")
    assert (info.series, info.source, info.major, info.supported) == ("19.0", "odoo-source", 19, True)


def test_manifests_most_common_prefix_wins() -> None:
    manifests = [_manifest(v) for v in ("17.0.1.0.0", "17.0.2.0", "18.0.1.0.0", "1.0")]
    assert series_from_manifests(manifests) == "17.0"
    info = detect_series(None, manifests, "16.0")
    assert (info.series, info.source) == ("17.0", "manifests")


def test_setting_is_the_last_resort() -> None:
    info = detect_series(None, [_manifest("1.0")], "18")
    assert (info.series, info.source) == ("18.0", "setting")
    assert detect_series().source == "unknown" and detect_series().series is None


@pytest.mark.parametrize(
    ("version", "series"),
    [("18.0.1.0.0", "18.0"), ("16.0.1.0", "16.0"), ("1.0", None), ("1.0.0", None), ("18.0", None)],
)
def test_series_of_version(version: str, series: str | None) -> None:
    assert series_of_version(version) == series


def test_a_bad_or_unsupported_series_is_an_error_naming_the_supported_ones() -> None:
    with pytest.raises(InvalidInput, match="not an Odoo series"):
        normalize_series("latest")
    for unsupported in ("15.0", "12", "99.0"):
        with pytest.raises(InvalidInput, match=r"is not supported: supported are 16\.0, 17\.0"):
            normalize_series(unsupported)
    assert [normalize_series(s) for s in (" 18.0 ", "18", "saas~17.2", "18.0.1.0.0")] == [
        "18.0",
        "18.0",
        "17.0",
        "18.0",
    ]


def test_an_unsupported_setting_is_an_error_even_when_the_manifests_decide(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"'15\.0' is not supported"):
        detect_series(None, [_manifest("18.0.1.0.0")], "15.0")


@pytest.mark.parametrize(
    ("series", "major"), [("18.0", 18), ("saas~17.2", 17), ("8.0", 8), (None, None), ("master", None)]
)
def test_series_major(series: str | None, major: int | None) -> None:
    assert series_major(series) == major
