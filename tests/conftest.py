"""Shared fixtures. Each package's tests live in their own folder with their own conftest."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from assista_mcp.config.loading import load_settings
from assista_mcp.config.settings import Settings
from assista_mcp.server.mcp_server import build_server
from odoo_tools.storage import use_cache_dir
from tests.services import pytest_runtest_makereport

REPO = Path(__file__).resolve().parent.parent
FIXTURE_ADDONS = REPO / "fixtures" / "addons"

__all__ = ["pytest_runtest_makereport"]  # in CI, a skip for a missing service is a failure


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _no_cache_dir_left_chosen() -> Iterator[None]:
    """A project file's cache_dir is chosen for the whole process (odoo_tools.storage): not past
    the test that loaded it."""
    yield
    use_cache_dir(None)


@pytest.fixture
def addons(tmp_path: Path) -> Path:
    """A private, writable copy of the bundled example addons."""
    target = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, target)
    return target


@pytest.fixture
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No ASSISTA_* leaking in from the developer's shell; home and cache in tmp."""
    import os

    for key in list(os.environ):
        if key.startswith("ASSISTA_"):
            monkeypatch.delenv(key)
    home = tmp_path / "home"
    monkeypatch.setenv("ASSISTA_HOME", str(home))
    monkeypatch.setenv("ASSISTA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return home


@pytest.fixture
def make_settings(isolated_env: Path) -> Callable[..., Settings]:
    def make(*roots: Path, **extra: object) -> Settings:
        return load_settings({"addons_paths": list(roots), **extra})

    return make


@pytest.fixture
def server_for(make_settings: Callable[..., Settings]) -> Callable[..., object]:
    """build_server over the given roots: ``Client(server_for(addons))`` in tests."""

    def make(*roots: Path, **extra: object) -> object:
        return build_server(make_settings(*roots, **extra))

    return make
