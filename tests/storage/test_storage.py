"""One way to store: atomic writes leave nothing behind, unique temp names, bounded caches."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from odoo_tools import storage
from odoo_tools.checkpoints import CheckpointStore
from odoo_tools.findings import Finding
from odoo_tools.lint import LintCache
from odoo_tools.runs._template_key import template_key
from odoo_tools.storage import FileDigests, StatCache, atomic_write_bytes, atomic_write_json, stale_temp


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("durable", [True, False])
def test_a_failed_atomic_write_leaves_no_temp_file(tmp_path: Path, durable: bool) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("x")  # a non-empty folder: the final rename must fail
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"data", durable=durable)
    assert _names(tmp_path) == ["taken"]


def test_atomic_write_keeps_mode_and_replaces_content(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and target.stat().st_mode & 0o777 == 0o640
    atomic_write_json(tmp_path / "b.json", {"k": [1]})
    assert (tmp_path / "b.json").read_text() == '{"k": [1]}'
    assert _names(tmp_path) == ["a.py", "b.json"]


def test_the_lint_cache_leaves_no_temp_file_when_its_write_fails(tmp_path: Path) -> None:
    cache = LintCache(tmp_path)
    key = "ab" + "0" * 62
    blocked = tmp_path / "lint" / "ab" / f"{key}.json"
    blocked.mkdir(parents=True)
    (blocked / "x").write_text("x")  # the entry's name is taken by a folder: the rename fails
    cache.put(key, [Finding(source="flake8", code="F401", message="unused")])  # swallowed
    assert _names(blocked.parent) == [blocked.name]


def test_two_checkpoint_writers_of_one_turn_never_collide(tmp_path: Path) -> None:
    """Two processes (two stores) saving the same turn: each write has its own temporary file."""
    first, second = CheckpointStore(tmp_path / "state"), CheckpointStore(tmp_path / "state")
    turn = first.begin_turn("shared")
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def save_many(store: CheckpointStore) -> None:
        start.wait()
        try:
            for _ in range(200):
                store.end_turn(turn.id)
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=save_many, args=(s,)) for s in (first, second)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    assert [t.id for t in first.turns()] == [turn.id]  # every save whole and readable
    assert [p.name for p in (tmp_path / "state" / "turns").iterdir() if p.suffix != ".json"] == []


def test_file_digests_are_bounded_and_follow_changes(tmp_path: Path) -> None:
    digests = FileDigests(max_entries=3)
    files = [tmp_path / f"f{i}" for i in range(10)]
    for i, path in enumerate(files):
        path.write_bytes(b"x" * i)
        digests.file_digest(path)
    assert len(digests) == 3
    before = digests.file_digest(files[-1])
    files[-1].write_bytes(b"changed, and longer")
    assert digests.file_digest(files[-1]) != before
    assert digests.file_digest(tmp_path / "missing") == storage.UNREADABLE


def test_stat_cache_drops_the_least_recently_used() -> None:
    cache: StatCache[str, int] = StatCache(max_entries=2)
    st = os.stat(".")
    cache.get("a", st, lambda: 1)
    cache.get("b", st, lambda: 2)
    cache.get("a", st, lambda: 99)  # a hit: "a" becomes the most recent
    cache.get("c", st, lambda: 3)
    assert cache.get("a", st, lambda: 99) == 1 and cache.get("b", st, lambda: 42) == 42


def test_template_keys_use_the_one_bounded_digest_cache(tmp_path: Path) -> None:
    module = tmp_path / "mod"
    module.mkdir()
    for i in range(20):
        (module / f"f{i}.py").write_text(str(i))
    limit = storage.FILE_DIGESTS._cache.max_entries
    key = template_key("18.0", False, tmp_path, [("mod", module)])
    assert key == template_key("18.0", False, tmp_path, [("mod", module)])
    assert storage.FILE_DIGESTS.file_digest(module / "f3.py") == storage.digest_bytes(b"3")
    assert len(storage.FILE_DIGESTS) <= limit


def test_stale_temp_names_are_told_from_live_ones(tmp_path: Path) -> None:
    live = storage.temp_path_for(tmp_path / "a.py").name
    assert live.startswith(".a.py.") and not stale_temp(live)
    dead = live.replace(f".{os.getpid()}-", ".999999999-")
    assert stale_temp(dead) and not stale_temp("a.py") and not stale_temp(".a.py.1-zz.tmp")
