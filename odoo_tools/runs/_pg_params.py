"""PostgreSQL connection parameters (flags > PG* > odoo.conf), our database names, and what to do
when a connection fails. No connection is opened here."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from odoo_tools.errors import InvalidInput

DEFAULT_PREFIX = "assista_"
MAX_DB_NAME = 63  # PostgreSQL's NAMEDATALEN - 1


@dataclass(frozen=True)
class PgParams:
    """Where PostgreSQL is and who we are. ``None`` means libpq's default (unix socket, OS user)."""

    host: str | None = None
    port: int | None = None
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def resolve(
        cls,
        *,
        host: str | None = None,
        port: int | str | None = None,
        user: str | None = None,
        password: str | None = None,
        env: Mapping[str, str] | None = None,
        conf: Mapping[str, str] | None = None,
    ) -> PgParams:
        """Flags (the arguments) > ``PG*`` environment > ``odoo.conf`` values (``db_host``...)."""
        env = os.environ if env is None else env
        conf = conf or {}

        def pick(flag: Any, env_key: str, conf_key: str) -> Any:
            if flag not in (None, ""):
                return flag
            return env.get(env_key) or conf.get(conf_key) or None

        raw_port = pick(port, "PGPORT", "db_port")
        try:
            port_value = int(raw_port) if raw_port is not None else None
        except ValueError as exc:
            raise InvalidInput(f"Database port {raw_port!r} is not a number.", "Give e.g. 5432.") from exc
        return cls(
            host=pick(host, "PGHOST", "db_host"),
            port=port_value,
            user=pick(user, "PGUSER", "db_user"),
            password=pick(password, "PGPASSWORD", "db_password"),
        )

    def connect_kwargs(self, dbname: str) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"dbname": dbname, "connect_timeout": 10}
        for key, value in (("host", self.host), ("port", self.port), ("user", self.user)):
            if value is not None:
                kwargs[key] = value
        if self.password:
            kwargs["password"] = self.password
        return kwargs

    def child_env(self) -> dict[str, str]:
        """Variables a child (odoo-bin, psql) needs to reach the same server, password included."""
        env: dict[str, str] = {}
        for key, value in (("PGHOST", self.host), ("PGPORT", self.port), ("PGUSER", self.user)):
            if value is not None:
                env[key] = str(value)
        if self.password:
            env["PGPASSWORD"] = self.password
        return env

    def describe(self) -> str:
        """Safe for logs and messages: never the password."""
        return f"{self.user or '(os user)'}@{self.host or '(local socket)'}:{self.port or 5432}"


def new_db_name(purpose: str, prefix: str = DEFAULT_PREFIX) -> str:
    """``<prefix><purpose>_<random>``: unique, ours, and a valid unquoted identifier."""
    clean = re.sub(r"[^a-z0-9_]+", "_", purpose.lower()).strip("_") or "db"
    suffix = secrets.token_hex(4)
    head = f"{prefix}{clean}"[: MAX_DB_NAME - len(suffix) - 1]
    return f"{head}_{suffix}"


AUTH_FAILURES = ("password authentication failed", "no password supplied", "authentication failed")
WHERE_SETTINGS = "(or db_host/db_port/db_user in assista-odoo.toml, or db_* in odoo.conf)"


def connect_hint(error: str) -> str:
    """What to do about a failed connection: the server answered and refused the credentials, or
    nobody answered at all."""
    lowered = error.lower()
    if any(marker in lowered for marker in AUTH_FAILURES):
        return (
            "The server refused the credentials: set PGPASSWORD (or db_password in odoo.conf, or a "
            "~/.pgpass entry) for this role, or pick another role with --db-user / PGUSER "
            f"{WHERE_SETTINGS}."
        )
    if 'role "' in lowered and "does not exist" in lowered:
        return (
            "Create the role (as a superuser: CREATE ROLE <name> LOGIN CREATEDB) or pick an existing "
            f"one with --db-user / PGUSER {WHERE_SETTINGS}."
        )
    return (
        "Start PostgreSQL, or point at a running one with --db-host/--db-port/--db-user (PGHOST, "
        f"PGPORT, PGUSER, PGPASSWORD) {WHERE_SETTINGS}."
    )
