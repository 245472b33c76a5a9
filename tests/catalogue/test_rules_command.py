"""The code catalogue's face: ``assista-odoo rules``, docs/rules.md kept in sync, and its data."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.catalogue import entries, entry, is_catalogued, render_markdown
from odoo_tools.catalogue._load import load_catalogue
from odoo_tools.catalogue._render import REGENERATE
from odoo_tools.series import API_CHANGES, SUPPORTED_SERIES

REPO = Path(__file__).resolve().parents[2]


def test_docs_rules_md_is_the_catalogue() -> None:
    written = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert written == render_markdown(entries()), f"docs/rules.md is stale: run `{REGENERATE}`"


def test_rules_prints_markdown_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == render_markdown(entries())
    assert main(["rules", "--series", "18", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    codes = {item["code"] for item in listed}
    assert "removed-tree" in codes and "missing-access-rule" in codes
    assert "removed-attrs" in codes  # 17.0 on: it holds on 18.0 too
    assert "access-operation-invalid" not in codes  # ir.access operations: a 20.0 fact
    assert "removed-field-states" not in codes  # the 16.0 -> 17.0 step only
    assert all("18.0" in item["series"] for item in listed)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["rules", "--series", "15.0"], "Odoo series '15.0' is not supported: supported are 16.0"),
        (["rules", "--series", "banana"], "is not an Odoo series like 18.0"),
        (["rules", "--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_usage_errors_exit_2_with_a_sentence(argv: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "assista_mcp", *argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_windows_come_from_the_series_registry() -> None:
    assert entry("access-operation-invalid").series() == ("20.0",)  # when = access.operations
    assert entry("removed-tree").series() == SUPPORTED_SERIES[SUPPORTED_SERIES.index("18.0") :]
    assert entry("removed-field-states").window() == "17.0"
    assert entry("missing-access-rule").window() == "every series"
    assert {e.code for e in entries(family="api-change")} == {c.id for c in API_CHANGES}


def test_prefix_entries_and_unknown_codes() -> None:
    assert entry("upgrade_code:17.5-01-tree-to-list").code == "upgrade_code:*"
    assert is_catalogued("view-field-unknown") and not is_catalogued("no-such-code")
    with pytest.raises(KeyError):
        entry("no-such-code")


def test_every_entry_says_what_why_and_what_to_do() -> None:
    for item in entries():
        assert item.title and item.why and item.hint and item.emitted_by, item.code


def _folder(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


GOOD = """emitted_by = ["static"]
[[entry]]
code = "x-y"
title = "t"
severity = "error"
why = "w"
hint = "h"
"""


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (('severity = "error"', 'severity = "fatal"'), "unknown severity 'fatal'"),
        (('hint = "h"', 'hint = "h"\nsince = "15.0"'), "'15.0' is not a series of the registry"),
        (('hint = "h"', 'hint = "h"\nwhen = "access.nothing"'), "is not a series fact"),
        (('hint = "h"', 'hnit = "h"'), "unknown keys hnit"),
        (('code = "x-y"', 'code = "removed-attrs"'), "codes catalogued twice: removed-attrs"),
    ],
)
def test_a_wrong_entry_is_refused_by_name(tmp_path: Path, edit: tuple[str, str], said: str) -> None:
    folder = _folder(tmp_path, "static.toml", GOOD.replace(*edit))
    with pytest.raises(ValueError) as raised:
        load_catalogue(folder)
    assert said in str(raised.value)


def test_a_good_data_file_loads(tmp_path: Path) -> None:
    loaded = load_catalogue(_folder(tmp_path, "static.toml", GOOD))
    assert loaded[0].code == "x-y" and loaded[0].family == "static"
    assert len(loaded) == 1 + len(API_CHANGES)


def test_the_readme_s_links_into_docs_rules_md_land_on_a_heading() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\(docs/rules\.md#([a-z0-9_-]+)\)", readme)
    headings = re.findall(r"^#+ (.+)$", render_markdown(entries()), re.MULTILINE)
    anchors = {re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-") for h in headings}
    assert links and set(links) <= anchors
