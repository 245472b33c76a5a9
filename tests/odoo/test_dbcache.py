"""The template cache against the real PostgreSQL: key, build once, clone, evict, list, clear.

The build step here writes a marker table into the scratch database in place of odoo-bin (the
cache only needs "something that fills a database and says whether it worked"); the end-to-end
path with the stand-in odoo-bin is in test_runner_validate.py.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from odoo_tools.errors import DatabaseError
from odoo_tools.runs._dbcache import RUN_LOCK_PREFIX, TemplateCache, TemplateInfo, layer_base, template_key
from odoo_tools.runs._pg import Pg, new_db_name


class Builder:
    """Fills the scratch database like an install would, and counts how often it ran."""

    def __init__(self, pg: Pg, cache: TemplateCache, ok: bool = True, delay: float = 0.0) -> None:
        self.pg, self.cache, self.ok, self.delay = pg, cache, ok, delay
        self.calls: list[str] = []
        self.started = asyncio.Event()

    async def __call__(self, database: str) -> bool:
        self.calls.append(database)
        self.started.set()
        await asyncio.sleep(self.delay)
        with self.pg.connect(database) as conn, conn.cursor() as cur:
            cur.execute("CREATE TABLE deps (name text); INSERT INTO deps VALUES ('base')")
        store = self.cache.filestore(database) / "ab"
        store.mkdir(parents=True)
        (store / "abc123").write_bytes(b"attachment")
        return self.ok


def _cache(pg: Pg, tmp_path: Path, **kwargs: float) -> TemplateCache:
    return TemplateCache(pg, tmp_path / "cache", **kwargs)  # type: ignore[arg-type]


def _info(key: str) -> TemplateInfo:
    return TemplateInfo(name="", key=key, odoo_version="18.0", modules=["base"])


def _module(root: Path, name: str) -> Path:
    folder = root / name
    (folder / "models").mkdir(parents=True)
    (folder / "__manifest__.py").write_text("{'name': 'x', 'depends': ['base']}")
    (folder / "models" / "a.py").write_text("x = 1\n")
    return folder


def test_key_changes_with_dependency_files_version_and_demo_only(tmp_path: Path) -> None:
    dep = _module(tmp_path, "dep")
    other = _module(tmp_path, "other")
    data = tmp_path / "data"
    base = template_key("18.0", False, data, [("dep", dep), ("other", other)])
    assert base == template_key("18.0", False, data, [("other", other), ("dep", dep)])
    (dep / "__pycache__").mkdir()
    (dep / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"junk")
    assert template_key("18.0", False, data, [("dep", dep), ("other", other)]) == base
    assert template_key("18.0", True, data, [("dep", dep), ("other", other)]) != base
    assert template_key("17.0", False, data, [("dep", dep), ("other", other)]) != base
    assert template_key("18.0", False, tmp_path / "d2", [("dep", dep), ("other", other)]) != base
    (dep / "models" / "a.py").write_text("x = 2\n")
    assert template_key("18.0", False, data, [("dep", dep), ("other", other)]) != base
    (dep / "models" / "a.py").write_text("x = 1\n")
    (dep / "models" / "b.py").write_text("")
    assert template_key("18.0", False, data, [("dep", dep), ("other", other)]) != base


@pytest.mark.anyio
async def test_first_clone_builds_then_hits_and_clones_carry_content_and_filestore(
    pg: Pg,
    tmp_path: Path,
) -> None:
    cache = _cache(pg, tmp_path)
    build = Builder(pg, cache)
    first, second = new_db_name("install", pg.prefix), new_db_name("install", pg.prefix)
    try:
        outcome = await cache.clone("a" * 40, first, build, _info("a" * 40))
        assert outcome.status == "built" and outcome.template == cache.template_name("a" * 40)
        outcome2 = await cache.clone("a" * 40, second, build, _info("a" * 40))
        assert outcome2.status == "hit"
        assert len(build.calls) == 1
        for clone in (first, second):
            with pg.connect(clone) as conn, conn.cursor() as cur:
                cur.execute("SELECT name FROM deps")
                assert cur.fetchall() == [("base",)]
            assert (cache.filestore(clone) / "ab" / "abc123").read_bytes() == b"attachment"
        # Templates refuse connections: nothing can sit on one and block a clone.
        with pytest.raises(DatabaseError), pg.connect(outcome.template):
            pass
        [listed] = cache.templates()
        assert (listed.name, listed.key, listed.orphan) == (outcome.template, "a" * 40, False)
        assert listed.last_used >= listed.created
        assert not cache.filestore(build.calls[0]).exists()  # the scratch filestore moved
    finally:
        for name in (first, second):
            cache.drop_database(name)
        assert cache.clear() == [cache.template_name("a" * 40)]
    assert not cache.filestore(first).exists()
    assert cache.templates() == []


@pytest.mark.anyio
async def test_concurrent_validations_build_the_template_once(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path)
    build = Builder(pg, cache, delay=0.5)
    clones = [new_db_name("test", pg.prefix) for _ in range(3)]
    try:
        outcomes = await asyncio.gather(*(cache.clone("b" * 40, c, build, _info("b" * 40)) for c in clones))
        assert sorted(o.status for o in outcomes) == ["built", "hit", "hit"]
        assert len(build.calls) == 1
        assert all(pg.exists(c) for c in clones)
    finally:
        for name in clones:
            cache.drop_database(name)
        cache.clear()


@pytest.mark.anyio
async def test_failed_build_leaves_nothing_and_is_retried_next_time(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path)
    clone = new_db_name("install", pg.prefix)
    outcome = await cache.clone("c" * 40, clone, Builder(pg, cache, ok=False), _info("c" * 40))
    assert outcome.status == "build_failed"
    assert pg.list_ours() == []
    assert cache.templates() == []
    assert not cache.filestore(outcome.build_database).exists()
    retry = Builder(pg, cache)
    try:
        assert (await cache.clone("c" * 40, clone, retry, _info("c" * 40))).status == "built"
        assert len(retry.calls) == 1
    finally:
        cache.drop_database(clone)
        cache.clear()


@pytest.mark.anyio
async def test_cancelled_build_drops_its_scratch_database_and_releases_the_lock(
    pg: Pg,
    tmp_path: Path,
) -> None:
    cache = _cache(pg, tmp_path)
    build = Builder(pg, cache, delay=30)
    task = asyncio.create_task(cache.clone("d" * 40, new_db_name("x", pg.prefix), build, _info("d" * 40)))
    await build.started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert pg.list_ours() == []
    with pg.try_advisory_lock("assista-template:" + cache.template_name("d" * 40)) as held:
        assert held


@pytest.mark.anyio
async def test_eviction_by_count_and_age_skips_templates_in_use(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path, max_count=2, max_age_days=1)
    keys = [c * 40 for c in "efg"]
    for key in keys:
        clone = new_db_name("x", pg.prefix)
        await cache.clone(key, clone, Builder(pg, cache), _info(key))
        cache.drop_database(clone)
        await asyncio.sleep(0.01)  # distinct last_used stamps, oldest first
    remaining = [t.key for t in cache.templates()]
    assert remaining == ["g" * 40, "f" * 40]  # the least recently used one went at the third build
    in_use = cache.template_name("f" * 40)
    with pg.advisory_lock("assista-template:" + in_use):
        evicted = cache.evict(now=time.time() + 2 * 86400)
    assert evicted == [cache.template_name("g" * 40)]
    assert [t.name for t in cache.templates()] == [in_use]
    assert cache.clear() == [in_use]
    assert pg.list_ours() == []


def test_orphans_are_listed_and_cleared(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path)
    stray_db = cache.template_name("1" * 40)
    pg.create(stray_db)
    cache.meta_dir.mkdir(parents=True)
    stray_meta = cache.template_name("2" * 40)
    (cache.meta_dir / f"{stray_meta}.json").write_text(_info("2" * 40).model_dump_json())
    listed = {t.name: t.orphan for t in cache.templates()}
    assert listed == {stray_db: True, stray_meta: True}
    assert sorted(cache.evict()) == sorted([stray_db, stray_meta])
    assert cache.templates() == []
    assert pg.list_ours() == []


@pytest.mark.anyio
async def test_another_cache_dir_on_the_same_server_never_evicts_our_templates(
    pg: Pg, tmp_path: Path
) -> None:
    ours = TemplateCache(pg, tmp_path / "ours", max_count=0)
    theirs = TemplateCache(pg, tmp_path / "theirs")
    clone = new_db_name("x", pg.prefix)
    await theirs.clone("9" * 40, clone, Builder(pg, theirs), _info("9" * 40))
    theirs.drop_database(clone)
    assert ours.templates() == [] and ours.evict() == [] and ours.clear() == []
    assert [t.key for t in theirs.templates()] == ["9" * 40]
    assert theirs.clear() == [theirs.template_name("9" * 40)]


@pytest.mark.anyio
async def test_a_spare_clone_is_taken_by_rename_and_cleared_with_its_template(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path)
    key = "5" * 40
    first, second = new_db_name("x", pg.prefix), new_db_name("x", pg.prefix)
    assert cache.refill_spare(key) is False  # no template yet: nothing to prepare
    await cache.clone(key, first, Builder(pg, cache), _info(key))
    template = cache.template_name(key)
    assert cache.refill_spare(key) is True and cache.refill_spare(key) is False  # one spare at most
    assert (cache.filestore(cache.spare_name(template)) / "ab" / "abc123").is_file()
    outcome = await cache.clone(key, second, Builder(pg, cache), _info(key))
    assert outcome.status == "hit" and outcome.spare
    assert not pg.exists(cache.spare_name(template)) and pg.exists(second)
    assert (cache.filestore(second) / "ab" / "abc123").read_bytes() == b"attachment"
    with pg.connect(second) as conn, conn.cursor() as cur:
        cur.execute("SELECT name FROM deps")
        assert cur.fetchall() == [("base",)]
    assert cache.refill_spare(key) is True
    assert [t.name for t in cache.templates()] == [template]  # the spare is not listed as a template
    for name in (first, second):
        cache.drop_database(name)
    assert cache.clear() == [template]
    assert pg.list_ours() == []


def test_prune_drops_only_databases_no_live_run_holds(pg: Pg, tmp_path: Path) -> None:
    cache = _cache(pg, tmp_path)
    left_by_a_killed_run, in_use = new_db_name("install", pg.prefix), new_db_name("test", pg.prefix)
    someone_elses_template = f"{pg.prefix}tplabcdef_{'7' * 20}"
    for name in (left_by_a_killed_run, in_use, someone_elses_template):
        pg.create(name)
    (cache.filestore(left_by_a_killed_run) / "x").mkdir(parents=True)
    with pg.advisory_lock(RUN_LOCK_PREFIX + in_use):
        assert cache.prune_runs() == [left_by_a_killed_run]
    assert not cache.filestore(left_by_a_killed_run).exists()
    assert pg.list_ours() == sorted([in_use, someone_elses_template])
    pg.drop(in_use)
    pg.drop(someone_elses_template)


def _held(name: str, held: list[str], **update: object) -> TemplateInfo:
    info = TemplateInfo(name=name, key=name, odoo_version="18.0", demo=True, modules=held, held=held)
    return info.model_copy(update=update)


def test_layer_base_is_the_largest_template_holding_nothing_the_new_one_will_not() -> None:
    new = TemplateInfo(
        name="", key="n", odoo_version="18.0", demo=True, modules=["base", "mail", "sale", "web"]
    )
    small = _held("small", ["base", "web"])
    large = _held("large", ["base", "mail", "web"])
    assert layer_base([small, large], new) == large
    # a template holding one module more (stock) would carry it into the new one
    assert layer_base([small, _held("wider", ["base", "mail", "stock", "web"])], new) == small
    # another Odoo, another demo flag, an orphan or an unknown content never serve as a base
    assert layer_base([large.model_copy(update={"odoo_version": "17.0"})], new) is None
    assert layer_base([large.model_copy(update={"demo": False})], new) is None
    assert layer_base([large.model_copy(update={"orphan": True})], new) is None
    assert layer_base([large.model_copy(update={"held": None})], new) is None


class LayerBuilder(Builder):
    """Adds its module to what the scratch database already holds, as ``odoo-bin -i`` would."""

    def __init__(self, pg: Pg, cache: TemplateCache, module: str) -> None:
        super().__init__(pg, cache)
        self.module = module

    async def __call__(self, database: str) -> bool:
        self.calls.append(database)
        with self.pg.connect(database) as conn, conn.cursor() as cur:
            cur.execute(
                "CREATE TABLE IF NOT EXISTS deps (name text); INSERT INTO deps VALUES (%s)", (self.module,)
            )
        return True


@pytest.mark.anyio
async def test_a_layered_cache_builds_a_new_template_on_a_copy_of_the_largest_it_contains(
    pg: Pg, tmp_path: Path
) -> None:
    cache = TemplateCache(pg, tmp_path / "cache", max_count=10, layered=True)
    small = TemplateInfo(name="", key="s" * 40, odoo_version="18.0", modules=["base"], held=["base"])
    wide = TemplateInfo(
        name="", key="w" * 40, odoo_version="18.0", modules=["base", "mail"], held=["base", "mail"]
    )
    plain = TemplateCache(pg, tmp_path / "plain")  # not layered: every build starts from empty
    runs = [new_db_name("install", pg.prefix) for _ in range(3)]
    try:
        first = await cache.clone("s" * 40, runs[0], LayerBuilder(pg, cache, "base"), small)
        assert first.status == "built" and _built_on(cache, first.template) == ""
        second = await cache.clone("w" * 40, runs[1], LayerBuilder(pg, cache, "mail"), wide)
        assert _built_on(cache, second.template) == first.template
        with pg.connect(runs[1]) as conn, conn.cursor() as cur:
            cur.execute("SELECT name FROM deps ORDER BY name")
            assert cur.fetchall() == [("base",), ("mail",)]  # the base's content, then the difference
        third = await plain.clone("w" * 40, runs[2], LayerBuilder(pg, plain, "mail"), wide)
        assert _built_on(plain, third.template) == ""
        with pg.connect(runs[2]) as conn, conn.cursor() as cur:
            cur.execute("SELECT name FROM deps ORDER BY name")
            assert cur.fetchall() == [("mail",)]
    finally:
        for name in runs:
            cache.drop_database(name)
        cache.clear()
        plain.clear()


def _built_on(cache: TemplateCache, template: str) -> str:
    record = cache.record(template)
    assert record is not None
    return record.built_on
