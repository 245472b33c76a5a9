"""``migrate --from 16.0 --to 18.0`` in one run: each step reads its own two series' sources
(``--from-odoo-path`` once per older series), and the report says what each step did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assista_mcp.cli import main

RULE = "removed-core-xml-id"
# product.list0 goes in 17.0, product.later in 18.0: each step finds its own.
DATA = {
    16: ("list0", "later", "kept"),
    17: ("later", "kept"),
    18: ("kept",),
}
VIEWS = """<odoo>
    <record id="mine_partner" model="res.partner">
        <field name="pricelist_id" ref="product.list0"/>
        <field name="other_id" ref="product.later"/>
        <field name="third_id" ref="product.kept"/>
    </record>
</odoo>
"""


def _source(root: Path, major: int) -> Path:
    records = "".join(f'    <record id="{name}" model="product.pricelist"/>\n' for name in DATA[major])
    files = {
        "odoo/release.py": f"version_info = ({major}, 0, 0, 'final', 0, '')\n",
        "odoo/addons/base/__manifest__.py": "{}",
        "addons/product/__manifest__.py": "{'data': ['data/product_data.xml']}",
        "addons/product/data/product_data.xml": f"<odoo>\n{records}</odoo>\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[int, Path]:
    return {major: _source(tmp_path / f"odoo{major}", major) for major in DATA}


@pytest.fixture
def module(tmp_path: Path) -> Path:
    folder = tmp_path / "addons" / "mine"
    (folder / "views").mkdir(parents=True)
    (folder / "__manifest__.py").write_text(
        "{'version': '16.0.1.0.0', 'depends': ['product'], 'data': ['views/views.xml']}\n"
    )
    (folder / "views/views.xml").write_text(VIEWS)
    return folder


def test_each_step_reads_its_own_sources(
    module: Path, sources: dict[int, Path], capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    argv = ["migrate", str(module), "--to", "18.0", "--odoo-path", str(sources[18]), "--no-diff"]
    argv += ["--from-odoo-path", str(sources[16]), "--from-odoo-path", str(sources[17])]
    assert main([*argv, "--format", "json"]) == 1
    [migrated] = json.loads(capsys.readouterr().out)["modules"]
    steps = [(s["source"], s["target"]) for s in migrated["steps"]]
    assert steps == [("16.0", "17.0"), ("17.0", "18.0")]
    gone = [[(f["line"], f["message"].split(" is gone")[0]) for f in s["findings"] if f["code"] == RULE]
            for s in migrated["steps"]]  # fmt: skip
    assert gone == [[(3, "product.list0")], [(4, "product.later")]]
    assert [s["unchecked"] for s in migrated["steps"]] == [[], []]  # both steps had both sources

    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "mine: 16.0 -> 18.0 (written)" not in out and "mine: 16.0 -> 18.0 (dry run" in out
    step_16 = out.index("  16.0 -> 17.0:")
    step_17 = out.index("  17.0 -> 18.0:")
    list0 = out.index("[removed-core-xml-id] product.list0 is gone from Odoo 17.0")
    later = out.index("[removed-core-xml-id] product.later is gone from Odoo 18.0")
    assert step_16 < list0 < step_17 < later  # each finding under its step
    assert "not checked" not in out


def test_a_step_without_its_old_source_is_said_not_checked(
    module: Path, sources: dict[int, Path], capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    argv = ["migrate", str(module), "--to", "18.0", "--odoo-path", str(sources[18]), "--no-diff"]
    assert main([*argv, "--from-odoo-path", str(sources[17])]) == 1
    out = capsys.readouterr().out
    assert "not checked (16.0 -> 17.0): " in out and "16.0 not given" in out
    assert "not checked (17.0 -> 18.0)" not in out
    assert "product.later is gone from Odoo 18.0" in out
    assert "--from-odoo-path, once per series" in out


def test_two_sources_of_one_series_are_refused(
    module: Path,
    sources: dict[int, Path],
    capsys: pytest.CaptureFixture[str],
    isolated_env: Path,
    tmp_path: Path,
) -> None:
    again = _source(tmp_path / "odoo17bis", 17)
    argv = ["migrate", str(module), "--to", "18.0", "--odoo-path", str(sources[18])]
    argv += ["--from-odoo-path", str(sources[17]), "--from-odoo-path", str(again)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "17.0" in err and "once per series" in err and "Traceback" not in err


def test_the_setting_takes_one_source_or_several(tmp_path: Path, isolated_env: Path) -> None:
    from assista_mcp.config.loading import load_settings

    one, two = tmp_path / "odoo16", tmp_path / "odoo17"
    assert load_settings({"from_odoo_path": one}, env={}).from_odoo_path == [one]  # as before
    assert load_settings({}, env={"ASSISTA_FROM_ODOO_PATH": f"{one},{two}"}).from_odoo_path == [one, two]
    assert load_settings({"from_odoo_path": [str(one), str(two)]}, env={}).from_odoo_path == [one, two]
    assert load_settings({}, env={}).from_odoo_path == []
