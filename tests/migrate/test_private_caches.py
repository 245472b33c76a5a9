"""The caches another account can reach (issue 35, items 3 and 13), through the real CLI and MCP
server: migrate's readings of an Odoo source, the lock files and the index's shards live under
one cache root (ASSISTA_CACHE_DIR honoured by all), in folders of this user's alone, checked on
every use; what a cache holds is data, never code, and a malformed one is read again."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

CHECKOUT = Path(__file__).resolve().parents[2]
EVIL = "__import__('os').system('touch pwned')"
OVERRIDE = """from odoo import models


class Tag(models.Model):
    _name = "x.tag"

    def _flag_it(self, flag):
        return flag and super()._flag_it(flag)
"""
MIGRATED = "return False and super()._flag_it()"


@pytest.fixture
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ASSISTA_CACHE_DIR is the cache root; XDG_CACHE_HOME is where 42512d9 kept them instead."""
    for key in [k for k in os.environ if k.startswith("ASSISTA_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("ASSISTA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ASSISTA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache"


def _sources(root: Path) -> list[str]:
    """17.0 and 18.0 "Odoo sources": 18.0 dropped ``_flag_it``'s ``flag=False``."""
    for version, params in ((17, "self, flag=False"), (18, "self")):
        (root / f"o{version}" / "odoo").mkdir(parents=True)
        (root / f"o{version}" / "odoo" / "release.py").write_text(
            f"version_info = ({version}, 0, 0, '', 0, '')\n"
        )
        (root / f"o{version}" / "odoo" / "models.py").write_text(
            f"class BaseModel:\n    def _flag_it({params}):\n        pass\n"
        )
    return ["--odoo-path", str(root / "o18"), "--from-odoo-path", str(root / "o17")]


def _module(root: Path) -> Path:
    module = root / "addons" / "mine"
    module.mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['base']}\n")
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models.py").write_text(OVERRIDE)
    return module


def _migrate(module: Path, sources: list[str], *more: str) -> int:
    """The real CLI in a process of its own: a process keeps a reading in memory once read."""
    argv = ["migrate", str(module), "--to", "18.0", "--no-diff", *sources, *more]
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}  # this checkout's code
    done = subprocess.run(
        [sys.executable, "-m", "assista_mcp", *argv], env=env, capture_output=True, text=True
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


def _readings(tmp_path: Path) -> list[Path]:
    return sorted(p for p in tmp_path.rglob("methods-*.json") if "o1" not in p.parts[0])


def _plant(path: Path, text: str, mode: int = 0o600) -> None:
    path.unlink()
    path.write_text(text)
    path.chmod(mode)


@pytest.mark.parametrize("mode", [0o666, 0o600], ids=["left-open-to-others", "ours-and-private"])
def test_a_planted_default_never_reaches_the_module(caches: Path, tmp_path: Path, mode: int) -> None:
    """A reading rewritten by someone else (a file left world-writable under umask 0), or one that
    is ours but holds code where a default was: the override reads ``False``, never the code."""
    module, sources = _module(tmp_path), _sources(tmp_path)
    assert _migrate(module, sources) in (0, 1)  # a dry run keeps the readings
    readings = _readings(tmp_path)
    assert readings
    for path in readings:
        _plant(path, path.read_text().replace('"False"', f'"{EVIL}"'), mode)
    assert _migrate(module, sources, "--write") in (0, 1)
    text = (module / "models.py").read_text()
    assert "__import__" not in text and MIGRATED in text


def test_a_readings_folder_that_is_a_link_or_another_accounts_is_not_used(
    caches: Path, tmp_path: Path
) -> None:
    module, sources = _module(tmp_path), _sources(tmp_path)
    assert _migrate(module, sources) in (0, 1)
    for folder in {p.parent for p in _readings(tmp_path)}:
        elsewhere = tmp_path / "elsewhere"
        folder.rename(elsewhere)
        folder.symlink_to(elsewhere)  # another account's folder the link leads to
        for path in elsewhere.glob("methods-*.json"):
            _plant(path, path.read_text().replace('"False"', f'"{EVIL}"'))
    assert _migrate(module, sources, "--write") in (0, 1)
    text = (module / "models.py").read_text()
    assert "__import__" not in text and MIGRATED in text
    if os.geteuid() == 0:  # root can make the folder another account's: not used either
        (module / "models.py").write_text(OVERRIDE)
        (module / "__manifest__.py").write_text("{'version': '17.0.1.0.0', 'depends': ['base']}\n")
        for link in [p for p in caches.rglob("*") if p.is_symlink()]:
            link.unlink()
            (tmp_path / "elsewhere").rename(link)
            os.chown(link, 4242, 4242)
            link.chmod(0o777)
        assert _migrate(module, sources, "--write") in (0, 1)
        assert "__import__" not in (module / "models.py").read_text()


@pytest.mark.parametrize(
    "planted", ['{"methods": [], "parents": []}', "[" * 100_000 + "]" * 100_000], ids=["parents-list", "deep"]
)
def test_a_malformed_reading_is_read_again(caches: Path, tmp_path: Path, planted: str) -> None:
    module, sources = _module(tmp_path), _sources(tmp_path)
    assert _migrate(module, sources) in (0, 1)
    for path in _readings(tmp_path):
        _plant(path, planted)
    assert _migrate(module, sources, "--write") in (0, 1)
    assert MIGRATED in (module / "models.py").read_text()


def test_every_cache_of_migrate_is_under_assista_cache_dir_and_private(caches: Path, tmp_path: Path) -> None:
    """The lock files and the readings used platformdirs (XDG_CACHE_HOME) whatever ASSISTA_CACHE_DIR
    said; now both are under it, folders 0700 and readings 0600."""
    module, sources = _module(tmp_path), _sources(tmp_path)
    assert _migrate(module, sources, "--write") in (0, 1)
    assert not (tmp_path / "xdg" / "assista-odoo" / "migrate").exists()
    for folder in (caches, caches / "migrate"):
        assert folder.is_dir() and folder.stat().st_mode & 0o777 == 0o700, folder
    readings = list((caches / "migrate").iterdir())
    assert readings and all(p.stat().st_mode & 0o777 == 0o600 for p in readings)


def _index_folder(cache: Path, elsewhere: Path | None) -> Path:
    """``<cache>/index`` as a link to ``elsewhere``, or (None) a folder of another account, open to all."""
    cache.mkdir(parents=True, exist_ok=True)
    index = cache / "index"
    if index.is_symlink():
        index.unlink()
    if elsewhere is not None:
        elsewhere.mkdir()
        index.symlink_to(elsewhere)
        return elsewhere
    index.mkdir()
    os.chown(index, 4242, 4242)
    index.chmod(0o777)
    return index


def _files_in(folder: Path) -> list[Path]:
    return list(folder.rglob("*"))


@pytest.mark.anyio
async def test_the_index_writes_no_shard_through_a_link_or_into_another_accounts_folder(
    server_for: Callable[..., Any], addons: Path, tmp_path: Path
) -> None:
    cache = Path(os.environ["ASSISTA_CACHE_DIR"])
    planted = [tmp_path / "elsewhere"] + ([None] if os.geteuid() == 0 else [])  # chown needs root
    for elsewhere in planted:
        folder = _index_folder(cache, elsewhere)
        async with Client(server_for(addons)) as client:
            found = await client.call_tool("find_model", {"model": "library.book"})
        assert not found.is_error
        assert _files_in(folder) == []
