"""The distribution: its version is written in one place, and what a release promises is logged."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import assista_mcp
import odoo_tools

REPO = Path(__file__).resolve().parent.parent


def test_the_version_is_written_once() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]', pyproject, re.MULTILINE)
    assert 'version = { attr = "odoo_tools.__version__" }' in pyproject
    assert assista_mcp.__version__ == odoo_tools.__version__ == metadata.version("assista-odoo")
    written = [
        path.relative_to(REPO).as_posix()
        for folder in ("assista_mcp", "odoo_tools")
        for path in (REPO / folder).rglob("*.py")
        if re.search(r"^__version__ = ", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert written == ["odoo_tools/__init__.py"]


def test_the_changelog_names_the_version() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"({odoo_tools.__version__})" in changelog
