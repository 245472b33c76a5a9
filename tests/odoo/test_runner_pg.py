"""odoo_tools.runs._pg against the real PostgreSQL: parameters, our-databases-only helpers, locks."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from odoo_tools.errors import DatabaseError, InvalidInput, SandboxViolation
from odoo_tools.runs._pg import Pg, PgParams, new_db_name


def test_params_precedence_flags_then_env_then_conf() -> None:
    env = {"PGHOST": "envhost", "PGPORT": "5433", "PGUSER": "envuser", "PGPASSWORD": "envpw"}
    conf = {"db_host": "confhost", "db_port": "5434", "db_user": "confuser", "db_password": "confpw"}
    assert PgParams.resolve(env={}, conf=conf) == PgParams("confhost", 5434, "confuser", "confpw")
    assert PgParams.resolve(env=env, conf=conf) == PgParams("envhost", 5433, "envuser", "envpw")
    flagged = PgParams.resolve(host="flaghost", port=6000, user="flaguser", env=env, conf=conf)
    assert flagged == PgParams("flaghost", 6000, "flaguser", "envpw")


def test_password_stays_out_of_repr_and_description_but_reaches_child_env() -> None:
    params = PgParams(host="h", port=1, user="u", password="s3cret")
    assert "s3cret" not in repr(params)
    assert "s3cret" not in params.describe()
    assert params.child_env()["PGPASSWORD"] == "s3cret"


def test_bad_port_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="not a number"):
        PgParams.resolve(port="abc", env={})


def test_new_db_name_is_ours_valid_and_unique() -> None:
    names = {new_db_name("Install Check!", prefix="assista_") for _ in range(20)}
    assert len(names) == 20
    for name in names:
        assert name.startswith("assista_install_check_")
        assert len(name) <= 63
    assert len(new_db_name("x" * 200)) <= 63


def test_create_clone_list_drop(pg: Pg) -> None:
    source = new_db_name("src", pg.prefix)
    clone = new_db_name("clone", pg.prefix)
    pg.create(source)
    with pg.connect(source) as conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE marker (v text); INSERT INTO marker VALUES ('hello')")
    pg.create(clone, template=source)
    assert pg.list_ours() == sorted([source, clone])
    with pg.connect(clone) as conn, conn.cursor() as cur:
        cur.execute("SELECT v FROM marker")
        assert cur.fetchall() == [("hello",)]
    assert pg.drop(clone) is True
    assert pg.drop(clone) is False
    assert pg.drop(source) is True
    assert pg.list_ours() == []


def test_clone_closes_our_own_sessions_on_the_template(pg: Pg) -> None:
    source = new_db_name("busy", pg.prefix)
    pg.create(source)
    lingering = pg.open(source)  # PostgreSQL refuses to clone while this is connected
    try:
        clone = new_db_name("clone", pg.prefix)
        pg.create(clone, template=source)
        assert pg.exists(clone)
    finally:
        lingering.close()
        pg.drop(source)
        pg.drop(clone)


def test_drop_terminates_sessions_first(pg: Pg) -> None:
    name = new_db_name("drop", pg.prefix)
    pg.create(name)
    holder = pg.open(name)
    try:
        assert pg.drop(name) is True
        assert not pg.exists(name)
    finally:
        holder.close()


def test_never_touches_a_database_that_is_not_ours(pg: Pg) -> None:
    for call in (
        lambda: pg.drop("postgres"),
        lambda: pg.create("userdb"),
        lambda: pg.create(new_db_name("x", pg.prefix), template="template1"),
        lambda: pg.terminate("postgres"),
        lambda: pg.rename("postgres", new_db_name("x", pg.prefix)),
        lambda: pg.list_ours("other_"),
    ):
        with pytest.raises(SandboxViolation):
            call()
    assert pg.exists("postgres")


def test_module_states_reads_ir_module_module_and_reports_absent(pg: Pg) -> None:
    name = new_db_name("states", pg.prefix)
    pg.create(name)
    try:
        assert pg.module_states(name, ["base"]) == {"base": "absent"}  # no table yet
        with pg.connect(name) as conn, conn.cursor() as cur:
            cur.execute(
                "CREATE TABLE ir_module_module (name varchar, state varchar);"
                "INSERT INTO ir_module_module VALUES ('base', 'installed'), ('web', 'to install')"
            )
        states = pg.module_states(name, ["base", "web", "ghost"])
        assert states == {"base": "installed", "web": "to install", "ghost": "absent"}
    finally:
        pg.drop(name)


def test_unreachable_server_says_how_to_fix() -> None:
    bad = Pg(PgParams(host="/nonexistent-socket-dir"), prefix="assista_")
    with pytest.raises(DatabaseError) as info:
        bad.server_info()
    assert "--db-host" in info.value.hint


def test_advisory_lock_excludes_a_second_holder(pg: Pg) -> None:
    key = f"{pg.prefix}lock"
    with pg.advisory_lock(key):
        with pg.try_advisory_lock(key) as held:
            assert held is False
        with pytest.raises(DatabaseError, match="Timed out"), pg.advisory_lock(key, timeout=0.3):
            pass
    with pg.try_advisory_lock(key) as held:
        assert held is True


def test_advisory_lock_serialises_threads(pg: Pg) -> None:
    key = f"{pg.prefix}serial"
    inside = 0
    overlaps: list[int] = []

    def worker() -> None:
        nonlocal inside
        with pg.advisory_lock(key):
            inside += 1
            overlaps.append(inside)
            time.sleep(0.05)
            inside -= 1

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [1, 1, 1, 1]


@pytest.mark.anyio
async def test_async_lock_waits_and_is_released_when_the_waiter_is_cancelled(pg: Pg) -> None:
    key = f"{pg.prefix}async"
    async with pg.async_advisory_lock(key):
        waiter = asyncio.create_task(_hold(pg, key))
        await asyncio.sleep(0.3)
        assert not waiter.done()  # still waiting for us
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    with pg.try_advisory_lock(key) as held:
        assert held is True  # nobody kept it: neither us nor the cancelled waiter


async def _hold(pg: Pg, key: str) -> None:
    async with pg.async_advisory_lock(key):
        await asyncio.sleep(10)
