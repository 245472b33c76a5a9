"""A source file over the cap is skipped with a warning, never read whole (a 2 GiB sparse .py
once took find_model to 2.1 GB of memory)."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.index import ProjectIndex
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
from odoo_tools.storage import MAX_SOURCE_BYTES

HUGE = "library_base/models/huge.py"


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as handle:
        handle.truncate(size)  # no disk used: the file reads as NUL bytes


def test_a_file_over_the_cap_is_skipped_with_a_warning(addons: Path, tmp_path: Path) -> None:
    _sparse(addons / HUGE, MAX_SOURCE_BYTES + 1)
    _sparse(addons / "library_base" / "models" / "at_cap.py", MAX_SOURCE_BYTES)
    index = ProjectIndex([addons], cache_dir=tmp_path / "cache")
    assert index.find_model("library.book").name == "library.book"  # the rest is indexed
    skipped = [f for f in index.findings() if f.code == "file-too-large"]
    assert [(f.path, f.severity, f.source) for f in skipped] == [(HUGE, "warning", "index")]
    assert f"over the {MAX_SOURCE_BYTES}-byte cap" in skipped[0].message and "not read" in skipped[0].message


def test_static_checks_report_the_skipped_file(addons: Path) -> None:
    _sparse(addons / HUGE, MAX_SOURCE_BYTES + 1)
    project = load_project([addons])
    addon = [project.addon_set.get("library_base")]
    run = lint_addons_sync(project, addon, ["static"], cache=LintCache(None), digests=FileDigests())
    assert [(f.code, f.path, f.severity) for f in run.findings if f.code == "file-too-large"] == [
        ("file-too-large", HUGE, "warning")
    ]
