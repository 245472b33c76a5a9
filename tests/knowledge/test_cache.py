"""Incremental indexing: only changed files are re-read; the on-disk cache survives restarts."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from odoo_tools.addons._discovery import odoo_core_roots
from odoo_tools.index import ProjectIndex


def _new_index(tree: Path, cache: Path | None, workers: int = 1) -> ProjectIndex:
    return ProjectIndex([tree / "project"], odoo_core_roots(tree / "odoo"), cache_dir=cache, workers=workers)


def _python_files(tree: Path) -> int:
    return sum(1 for p in tree.rglob("*") if p.suffix in (".py", ".xml", ".csv") and p.name != "release.py")


def test_first_refresh_reads_everything_then_nothing(tree: Path, tmp_path: Path) -> None:
    index = _new_index(tree, tmp_path / "cache")
    first = index.refresh()
    assert len(first.parsed) == first.files == _python_files(tree)
    again = index.refresh()
    assert (again.parsed, again.rehashed, again.removed) == ([], 0, 0)
    assert index.parse_count == first.files


def test_touching_one_file_rereads_only_it(tree: Path, tmp_path: Path) -> None:
    index = _new_index(tree, tmp_path / "cache")
    index.refresh()
    target = tree / "project" / "fleet_extra" / "models" / "fleet_vehicle.py"
    target.write_text(
        target.read_text(encoding="utf-8").replace(
            'insurance_ref = fields.Char(string="Insurance")',
            'insurance_ref = fields.Char(string="Insurance")\n    color = fields.Char()',
        ),
        encoding="utf-8",
    )
    stats = index.refresh()
    assert stats.parsed == [str(target.resolve())]
    assert "color" in [f.name for f in index.find_model("fleet.vehicle").fields]


def test_same_content_new_mtime_is_hashed_not_parsed(tree: Path, tmp_path: Path) -> None:
    index = _new_index(tree, tmp_path / "cache")
    index.refresh()
    target = tree / "project" / "fleet_base" / "views" / "fleet_menus.xml"
    st = target.stat()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    stats = index.refresh()
    assert (stats.parsed, stats.rehashed) == ([], 1)


def test_a_new_process_reuses_the_disk_cache(tree: Path, tmp_path: Path) -> None:
    _new_index(tree, tmp_path / "cache").refresh()
    restarted = _new_index(tree, tmp_path / "cache")
    stats = restarted.refresh()
    assert stats.parsed == [] and restarted.parse_count == 0
    assert restarted.find_model("fleet.vehicle").defined_in[0].module == "fleet_base"


def test_a_change_to_the_index_code_rereads_every_file(tree: Path, tmp_path: Path) -> None:
    """No hand-bumped version: a cache written by other parser code is never trusted."""
    import shutil

    from odoo_tools.index import _cache

    _new_index(tree, tmp_path / "cache").refresh()
    code = tmp_path / "code"
    shutil.copytree(_cache.INDEX_CODE, code, ignore=shutil.ignore_patterns("__pycache__"))
    assert _cache.code_digest(code) == _cache.code_digest()
    (code / "_xml_index.py").write_text("# a fixed parser\n", encoding="utf-8")
    other = json.dumps({"version": _cache.CACHE_VERSION, "code": _cache.code_digest(code)}).encode() + b"\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_cache, "_HEADER", other)  # what the changed code would write and expect
        restarted = _new_index(tree, tmp_path / "cache")
        assert len(restarted.refresh().parsed) == _python_files(tree)


def test_removed_file_and_removed_module(tree: Path, tmp_path: Path) -> None:
    index = _new_index(tree, tmp_path / "cache")
    index.refresh()
    (tree / "project" / "fleet_base" / "models" / "fleet_vehicle.py").unlink()
    stats = index.refresh()
    assert stats.removed == 1
    # Only fleet_extra's extension is left: the model is Odoo's own fleet.vehicle (the series pack)
    info = index.find_model("fleet.vehicle")
    assert [p.module for p in info.defined_in] == ["fleet"] and "series pack" in info.known_from
    assert "fleet_extra" in [p.module for p in info.extended_by]
    for path in sorted((tree / "project" / "broken_files").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (tree / "project" / "broken_files").rmdir()
    assert index.refresh().removed == 6
    assert "broken_files" not in index.addons
    restarted = _new_index(tree, tmp_path / "cache")
    assert restarted.refresh().parsed == []  # the module's shard was removed with it


def test_a_damaged_shard_costs_only_its_module(tree: Path, tmp_path: Path) -> None:
    _new_index(tree, tmp_path / "cache").refresh()
    (shard,) = (tmp_path / "cache").rglob("fleet_extra.json")
    shard.write_text("{not json", encoding="utf-8")
    stats = _new_index(tree, tmp_path / "cache").refresh()
    assert stats.parsed and {Path(p).relative_to(tree / "project").parts[0] for p in stats.parsed} == {
        "fleet_extra"
    }


def test_fixing_a_broken_file_clears_its_finding(tree: Path, tmp_path: Path) -> None:
    index = _new_index(tree, tmp_path / "cache")
    assert "python-syntax" in {f.code for f in index.findings()}
    bad = tree / "project" / "broken_files" / "models" / "bad_syntax.py"
    bad.write_text("from odoo import models\n\n\nclass Fixed(models.Model):\n    _name = 'broken.syntax'\n")
    assert "python-syntax" not in {f.code for f in index.findings()}
    assert index.find_model("broken.syntax").defined_in[0].line == 4


def test_without_a_cache_dir_everything_stays_in_memory(tree: Path) -> None:
    index = _new_index(tree, None)
    assert index.refresh().parsed
    assert index.refresh().parsed == []


@pytest.mark.slow
def test_worker_processes_give_the_same_index(tree: Path, tmp_path: Path) -> None:
    serial = _new_index(tree, None, workers=1)
    parallel = _new_index(tree, tmp_path / "cache", workers=2)
    assert len(parallel.refresh().parsed) == len(serial.refresh().parsed)
    assert parallel.tables.model_classes == serial.tables.model_classes
    assert parallel.tables.records == serial.tables.records


def test_template_csv_files_are_not_data_files(tree: Path) -> None:
    template = tree / "project" / "fleet_base" / "data" / "template"
    template.mkdir(parents=True)
    (template / "account.tax-be.csv").write_text("id,name\ntax_21,21%\n", encoding="utf-8")
    (template / "res.partner.csv").write_text("id,name\npartner_x,X\n", encoding="utf-8")
    index = _new_index(tree, None)
    index.refresh()
    assert "fleet_base.partner_x" in index.tables.records
    assert "fleet_base.tax_21" not in index.tables.records
