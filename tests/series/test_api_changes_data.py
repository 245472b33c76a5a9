"""The API change table is a data file read by a typed loader that refuses a wrong entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.series import API_CHANGES, SUPPORTED_SERIES, api_change
from odoo_tools.series._api_changes import load_api_changes

ENTRY = """
[[change]]
id = "removed-x"
since = "17.0"
kind = "python-call"
old = "x"
new = ""
severity = "error"
message = "x is gone."
hint = "Drop x."
source = "odoo/models.py"
"""


def test_the_shipped_table_loads_with_every_series_known() -> None:
    assert len(API_CHANGES) > 50
    assert {change.since for change in API_CHANGES} <= set(SUPPORTED_SERIES)
    assert api_change("removed-attrs").kind == "xml-attribute"
    assert api_change("removed-filter-start-month").element == "filter"


def test_a_good_entry_loads(tmp_path: Path) -> None:
    path = tmp_path / "changes.toml"
    path.write_text(ENTRY, encoding="utf-8")
    (change,) = load_api_changes(path)
    assert (change.id, change.since, change.severity, change.element) == ("removed-x", "17.0", "error", "")


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (('since = "17.0"', 'since = "15.0"'), "'15.0' is not a series of the registry"),
        (('kind = "python-call"', 'kind = "python"'), "unknown kind 'python'"),
        (('severity = "error"', 'severity = "fatal"'), "unknown severity 'fatal'"),
        (('hint = "Drop x."', 'hnit = "Drop x."'), "unknown keys hnit"),
        (('source = "odoo/models.py"', ""), "missing keys source"),
        (('new = ""', "new = 1"), "every value is a string"),
    ],
)
def test_a_wrong_entry_is_refused_by_name(tmp_path: Path, edit: tuple[str, str], said: str) -> None:
    path = tmp_path / "changes.toml"
    path.write_text(ENTRY.replace(*edit), encoding="utf-8")
    with pytest.raises(ValueError, match="entry 1 \\(removed-x\\)") as raised:
        load_api_changes(path)
    assert said in str(raised.value)


def test_an_id_given_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "changes.toml"
    path.write_text(ENTRY + ENTRY, encoding="utf-8")
    with pytest.raises(ValueError, match="ids given twice: removed-x"):
        load_api_changes(path)
