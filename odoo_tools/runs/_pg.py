"""PostgreSQL for Odoo runs: helpers that touch OUR databases only (parameters: ``_pg_params``).

"Ours" means a name that starts with our prefix (``assista_`` by default). Every helper that
creates, drops or clones refuses any other name, so a typo can never reach a user's database.
The password never goes on a command line: children get it through ``PGPASSWORD``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import psycopg2
import psycopg2.errors
from psycopg2 import sql

from odoo_tools.errors import DatabaseError, InvalidInput, SandboxViolation
from odoo_tools.runs._pg_params import DEFAULT_PREFIX, MAX_DB_NAME, PgParams, connect_hint, new_db_name

# Where the connection parameters and names now live; importers of this module keep working.
__all__ = ["DEFAULT_PREFIX", "MAX_DB_NAME", "Pg", "PgParams", "connect_hint", "new_db_name"]

MAINTENANCE_DB = "postgres"
_NAME_OK = re.compile(r"^[a-z0-9_]+$")
# A prefix is a namespace of its own: lowercase, starts with a letter, ends with "_" (so "odoo"
# can never claim "odoo_production"), short enough to leave room for our names.
_PREFIX_OK = re.compile(r"^[a-z][a-z0-9_]{0,28}_$")
# Every database we create carries this comment: bulk clean-ups (prune, evict) touch only those.
CREATED_MARK = "created by assista-odoo"
# psycopg2 ships no type information; connections are typed as Any behind this alias.
Connection = Any


class Pg:
    """Helpers bound to one server and one prefix. Synchronous: call from a thread in async code."""

    def __init__(self, params: PgParams, prefix: str = DEFAULT_PREFIX) -> None:
        if not _PREFIX_OK.match(prefix or ""):
            raise InvalidInput(
                f"Database prefix {prefix!r} is not valid: it must start with a lowercase letter, hold only "
                "lowercase letters, digits and _, end with _ and be at most 30 characters.",
                f"Use e.g. {DEFAULT_PREFIX!r} (ASSISTA_DB_PREFIX / db_prefix).",
            )
        self.params = params
        self.prefix = prefix

    # -- connections -------------------------------------------------------------------------
    def open(self, dbname: str = MAINTENANCE_DB) -> Connection:
        """A new autocommit connection; the caller closes it (prefer ``connect``)."""
        try:
            conn = psycopg2.connect(**self.params.connect_kwargs(dbname))
        except psycopg2.OperationalError as exc:
            raise DatabaseError(
                f"Cannot connect to PostgreSQL ({self.params.describe()}, database {dbname!r}): "
                f"{str(exc).strip()}",
                connect_hint(str(exc)),
            ) from exc
        conn.autocommit = True
        return conn

    @contextlib.contextmanager
    def connect(self, dbname: str = MAINTENANCE_DB) -> Iterator[Connection]:
        """An autocommit connection, always closed afterwards."""
        conn = self.open(dbname)
        try:
            yield conn
        finally:
            conn.close()

    def _execute(self, statement: sql.Composable | str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.connect() as conn, conn.cursor() as cur:
            try:
                cur.execute(statement, args)
            except psycopg2.Error as exc:
                raise DatabaseError(f"PostgreSQL refused: {str(exc).strip()}") from exc
            return list(cur.fetchall()) if cur.description else []

    # -- what exists -------------------------------------------------------------------------
    def is_ours(self, name: str) -> bool:
        return name.startswith(self.prefix) and bool(_NAME_OK.match(name)) and len(name) <= MAX_DB_NAME

    def ensure_ours(self, name: str) -> None:
        if not self.is_ours(name):
            raise SandboxViolation(
                f"Database {name!r} was not created by assista-odoo (prefix {self.prefix!r}).",
                "assista-odoo only creates, clones and drops its own databases.",
            )

    def exists(self, name: str) -> bool:
        return bool(self._execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)))

    def list_ours(self, prefix: str | None = None, *, created_only: bool = False) -> list[str]:
        """Our databases (optionally a narrower prefix), sorted; with ``created_only``, only those
        that carry our creation mark (see ``create``)."""
        narrow = prefix or self.prefix
        if not narrow.startswith(self.prefix):
            raise SandboxViolation(f"Prefix {narrow!r} is outside ours ({self.prefix!r}).")
        like = narrow.replace("_", r"\_") + "%"
        rows = self._execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s "
            "AND (NOT %s OR shobj_description(oid, 'pg_database') = %s) ORDER BY 1",
            (like, created_only, CREATED_MARK),
        )
        return [r[0] for r in rows]

    def server_info(self) -> tuple[str, bool]:
        """(server version, whether our role may create databases)."""
        rows = self._execute(
            "SELECT current_setting('server_version'), "
            "(SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user)"
        )
        return str(rows[0][0]), bool(rows[0][1])

    # -- create / clone / drop -----------------------------------------------------------------
    def create(self, name: str, template: str | None = None) -> None:
        """Create ``name`` empty (from template0) or as a copy of our ``template`` (which
        needs nobody connected to the template)."""
        self.ensure_ours(name)
        if template is None:
            self._execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
        else:
            self.ensure_ours(template)
            statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
            self._execute_alone_on(template, statement)
        # The record that we created it (kept across renames; a copy does not inherit it).
        self._execute(
            sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(name), sql.Literal(CREATED_MARK))
        )

    def terminate(self, name: str) -> int:
        """Close every session on our database ``name``; returns how many were closed."""
        self.ensure_ours(name)
        rows = self._execute(
            # Client sessions only: autovacuum workers are superuser processes we may not
            # signal, and PostgreSQL stops them itself for DROP and CREATE ... TEMPLATE.
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
            (name,),
        )
        return len(rows)

    def drop(self, name: str) -> bool:
        """Drop our database ``name`` if it exists (sessions closed first). True if dropped."""
        self.ensure_ours(name)
        if not self.exists(name):
            return False
        self._execute_alone_on(name, sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        return True

    def _execute_alone_on(self, name: str, statement: sql.Composable) -> None:
        """Run a statement that needs nobody on ``name``: close its sessions first, and retry
        briefly, because PostgreSQL refuses (after ~5 s) rather than waits."""
        for attempt in range(3):
            self.terminate(name)
            try:
                self._execute(statement)
                return
            except DatabaseError as exc:
                if "being accessed by other users" not in exc.message or attempt == 2:
                    raise
                time.sleep(0.2)

    def rename(self, old: str, new: str) -> None:
        self.ensure_ours(old)
        self.ensure_ours(new)
        self._execute_alone_on(
            old, sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(old), sql.Identifier(new))
        )

    def allow_connections(self, name: str, allow: bool) -> None:
        """Templates refuse connections, so nothing can sit on them and block a clone."""
        self.ensure_ours(name)
        self._execute(
            sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(sql.Identifier(name), sql.Literal(allow))
        )

    # -- Odoo content ------------------------------------------------------------------------
    def module_states(self, name: str, modules: Sequence[str]) -> dict[str, str]:
        """``ir_module_module.state`` of each module; "absent" when the row or the table is missing."""
        states = dict.fromkeys(modules, "absent")
        if not modules:
            return states
        with self.connect(name) as conn, conn.cursor() as cur:
            try:
                cur.execute("SELECT name, state FROM ir_module_module WHERE name = ANY(%s)", (list(modules),))
            except psycopg2.errors.UndefinedTable:
                return states
            except psycopg2.Error as exc:
                raise DatabaseError(f"Cannot read module states in {name!r}: {str(exc).strip()}") from exc
            states.update({str(n): str(s) for n, s in cur.fetchall()})
        return states

    def held_modules(self, name: str) -> dict[str, str]:
        """Every module row of database ``name`` that is not (un)installable: what it really holds,
        with its state (``installed``, or a transient one a broken load left behind)."""
        with self.connect(name) as conn, conn.cursor() as cur:
            try:
                cur.execute(
                    "SELECT name, state FROM ir_module_module "
                    "WHERE state NOT IN ('uninstalled', 'uninstallable') ORDER BY name"
                )
            except psycopg2.errors.UndefinedTable:
                return {}
            except psycopg2.Error as exc:
                raise DatabaseError(f"Cannot read the modules of {name!r}: {str(exc).strip()}") from exc
            return {str(n): str(s) for n, s in cur.fetchall()}

    # -- locks -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def advisory_lock(self, key: str, timeout: float | None = None, poll: float = 0.1) -> Iterator[bool]:
        """Hold ``pg_advisory_lock(hashtext(key))`` for the block, on a connection to ``postgres``.

        Polls with try-lock so a waiting caller stays interruptible. Yields True when held;
        with ``timeout`` it raises DatabaseError if the lock is still taken after that long.
        The lock dies with the connection, so a crashed holder never blocks anyone for good.
        """
        with self.connect() as conn:
            deadline = None if timeout is None else time.monotonic() + timeout
            while not _try_lock_on(conn, key):
                if deadline is not None and time.monotonic() >= deadline:
                    raise DatabaseError(
                        f"Timed out after {timeout:.0f}s waiting for lock {key!r}.",
                        "Another validation is using it; retry when it has finished.",
                    )
                time.sleep(poll)
            try:
                yield True
            finally:
                _unlock_on(conn, key)

    @contextlib.asynccontextmanager
    async def async_advisory_lock(self, key: str, poll: float = 0.1) -> AsyncIterator[None]:
        """The same lock for async callers: waiting never blocks the event loop and a
        cancellation while waiting (or while holding) just closes the connection, releasing it."""
        conn = await asyncio.to_thread(self.open)
        try:
            while True:
                if await asyncio.to_thread(_try_lock_on, conn, key):
                    break
                await asyncio.sleep(poll)
            yield
        finally:
            conn.close()

    def try_advisory_lock(self, key: str) -> contextlib.AbstractContextManager[bool]:
        """Like ``advisory_lock`` but never waits: yields False when someone else holds it."""
        return _try_lock(self, key)


def _try_lock_on(conn: Connection, key: str) -> bool:
    with conn.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,))
        row = cur.fetchone()
        return bool(row and row[0])


def _unlock_on(conn: Connection, key: str) -> None:
    with contextlib.suppress(psycopg2.Error), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


@contextlib.contextmanager
def _try_lock(pg: Pg, key: str) -> Iterator[bool]:
    with pg.connect() as conn:
        held = _try_lock_on(conn, key)
        try:
            yield held
        finally:
            if held:
                _unlock_on(conn, key)
