"""The sessions database's file and schema: created 0600, brought up to the newest schema one
numbered step at a time (``MIGRATIONS``); ``sessions.SessionStore`` reads and writes it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from odoo_tools.errors import ConfigError


def create_private(path: Path) -> None:
    """Create the database file 0600 (never through a link) unless it exists."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, flags, 0o600))


# The schema's history: step N brings a database from user_version N-1 to N. Steps are only ever
# appended, never edited (a user's database may be at any step). Step 1 is the original schema:
# its IF NOT EXISTS lets a database made before the ladder existed (user_version 0) join it.
MIGRATIONS: tuple[str, ...] = (
    """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    steps INTEGER NOT NULL DEFAULT 0,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS messages (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS events (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
""",
)


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database up to the newest schema, one numbered step at a time. BEGIN IMMEDIATE:
    two agents starting at once never run a step twice."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > len(MIGRATIONS):
            raise ConfigError(
                f"The sessions database {path} has schema version {version}, made by a newer "
                f"assista-odoo (this one knows up to {len(MIGRATIONS)}).",
                "Upgrade assista-odoo, or point ASSISTA_HOME at another folder.",
            )
        for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in filter(str.strip, step.split(";")):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
