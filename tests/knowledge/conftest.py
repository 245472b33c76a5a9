"""Fixtures for the knowledge tests: a private copy of fixtures/index and an index over it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from odoo_tools.addons._discovery import odoo_core_roots
from odoo_tools.index import ProjectIndex

REPO = Path(__file__).resolve().parents[2]
INDEX_FIXTURES = REPO / "fixtures" / "index"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A writable copy of fixtures/index: ``project/`` (the addons) and ``odoo/`` (an Odoo source)."""
    target = tmp_path / "tree"
    shutil.copytree(INDEX_FIXTURES / "project", target / "project")
    lay_out_odoo_source(INDEX_FIXTURES / "mini_odoo", target / "odoo")
    return target


def lay_out_odoo_source(mini: Path, odoo: Path) -> None:
    """Arrange the flat miniature the way an Odoo source tree is arranged."""
    shutil.copytree(mini / "core", odoo / "odoo" / "addons")
    shutil.copytree(mini / "addons", odoo / "addons")
    shutil.copy2(mini / "release.py", odoo / "odoo" / "release.py")
    shutil.copy2(mini / "odoo-bin", odoo / "odoo-bin")


@pytest.fixture
def index(tree: Path, tmp_path: Path) -> ProjectIndex:
    odoo = tree / "odoo"
    built = ProjectIndex(
        [tree / "project"], odoo_core_roots(odoo), cache_dir=tmp_path / "cache", odoo_path=odoo, workers=1
    )
    built.refresh()
    return built
