"""Nobody's database but ours: the prefix is a namespace that ends with "_", and
bulk clean-ups drop only databases of our naming that we recorded as created."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg2 import sql

from odoo_tools.errors import InvalidInput
from odoo_tools.runs._dbcache import TemplateCache
from odoo_tools.runs._pg import Pg, PgParams, new_db_name


@pytest.mark.parametrize(
    "prefix", ["odoo", "assista", "", "Assista_", "_x_", "a-b_", "1abc_", "a" * 31 + "_"]
)
def test_a_prefix_that_is_not_its_own_namespace_is_refused(prefix: str) -> None:
    with pytest.raises(InvalidInput, match="must start with a lowercase letter"):
        Pg(PgParams(), prefix=prefix)


@pytest.mark.parametrize("prefix", ["assista_", "odoo_", "ci_job42_"])
def test_safe_prefixes_are_accepted(prefix: str) -> None:
    assert Pg(PgParams(), prefix=prefix).prefix == prefix


@pytest.fixture
def someone_elses(pg: Pg) -> Iterator[list[str]]:
    """Databases under our prefix that we did not create (made with plain SQL, as a user would)."""
    names = [f"{pg.prefix}production", new_db_name("install", pg.prefix)]  # the second looks like ours
    with pg.connect() as conn, conn.cursor() as cur:
        for name in names:
            cur.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    yield names
    for name in names:
        pg.drop(name)


def test_prune_drops_only_what_we_created_under_our_naming(
    pg: Pg, tmp_path: Path, someone_elses: list[str]
) -> None:
    cache = TemplateCache(pg, tmp_path / "cache")
    leftover = new_db_name("install", pg.prefix)
    pg.create(leftover)
    kept_by_name = f"{pg.prefix}my_notes"
    pg.create(kept_by_name)  # ours, but not of a run's naming
    try:
        assert cache.prune_runs() == [leftover]
        assert sorted(pg.list_ours()) == sorted([*someone_elses, kept_by_name])
        assert cache.templates() == []  # and nothing of theirs is listed (or evicted) as a template
    finally:
        pg.drop(kept_by_name)


def test_a_prefix_like_odoo_can_never_reach_odoo_production(pg: Pg, tmp_path: Path) -> None:
    """ASSISTA_DB_PREFIX=odoo made prune drop odoo_production; now "odoo" is refused, and under
    "odoo_" a database we did not create is never pruned."""
    with pytest.raises(InvalidInput):
        Pg(pg.params, prefix="odoo")
    prefix = f"odoo{secrets.token_hex(3)}_"
    theirs = Pg(pg.params, prefix=prefix)
    production = f"{prefix}production"
    with theirs.connect() as conn, conn.cursor() as cur:
        cur.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(production)))
    try:
        assert TemplateCache(theirs, tmp_path / "cache").prune_runs() == []
        assert theirs.exists(production)
    finally:
        theirs.drop(production)
