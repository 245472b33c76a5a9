"""Writable copies of the migration fixture modules (fixtures/migrate)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "migrate"


@pytest.fixture
def modules(tmp_path: Path) -> Path:
    """``v16/``, ``v17/``, ``v18/`` folders of modules, copied so tests may write."""
    target = tmp_path / "modules"
    shutil.copytree(FIXTURES, target)
    return target


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
