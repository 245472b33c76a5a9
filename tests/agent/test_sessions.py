"""The sessions store: written as it happens, read back whole, exported, deleted, no secrets."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.loop.session_schema import MIGRATIONS
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.safety.redaction import REDACTED
from odoo_tools.errors import ConfigError, InvalidInput, NotFound


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore.in_home(tmp_path / "home")


def test_messages_and_events_are_readable_by_another_connection_immediately(
    store: SessionStore, tmp_path: Path
) -> None:
    info = store.create(model="openai/x", mode="ask", title="add a field")
    store.add_message(info.id, {"role": "user", "content": "add a field"})
    store.add_event(info.id, StreamEvent(type="text", text="On it", step=1))
    # A second connection (e.g. `sessions show` while the agent runs) sees it without any close/flush.
    other = SessionStore(store.path)
    assert other.messages(info.id) == [{"role": "user", "content": "add a field"}]
    assert [(e.type, e.text, e.step) for e in other.events(info.id)] == [("text", "On it", 1)]
    assert other.get(info.id).title == "add a field"


def test_usage_totals_accumulate(store: SessionStore) -> None:
    info = store.create(model="m", mode="ask")
    store.add_usage(info.id, Usage(prompt_tokens=10, completion_tokens=2, cached_tokens=4, cost_usd=0.5))
    store.add_usage(info.id, Usage(prompt_tokens=5, completion_tokens=1, cost_usd=0.25))
    got = store.get(info.id)
    assert got.steps == 2
    assert got.usage == Usage(prompt_tokens=15, completion_tokens=3, cached_tokens=4, cost_usd=0.75)


def test_get_by_prefix_latest_and_list(store: SessionStore) -> None:
    first = store.create(model="m", mode="ask", title="one")
    second = store.create(model="m", mode="ask", title="two")
    store.add_message(first.id, {"role": "user", "content": "again"})
    assert store.get(first.id[:6]).id == first.id
    latest = store.latest()
    assert latest is not None and latest.id == first.id
    assert {s.id for s in store.list_sessions()} == {first.id, second.id}


def test_unknown_and_malformed_ids_are_clear_errors(store: SessionStore) -> None:
    with pytest.raises(NotFound, match="sessions list"):
        store.get("abc123")
    with pytest.raises(NotFound):
        store.get("%")


def test_ambiguous_prefix_is_refused(store: SessionStore) -> None:
    ids = {store.create(model="m", mode="ask").id for _ in range(40)}
    # With 40 random hex ids some single-character prefix is shared by two of them.
    counts: dict[str, int] = {}
    for sid in ids:
        counts[sid[0]] = counts.get(sid[0], 0) + 1
    shared = next(c for c, n in counts.items() if n > 1)
    with pytest.raises(InvalidInput, match="ambiguous"):
        store.get(shared)


def test_delete_removes_history(store: SessionStore) -> None:
    info = store.create(model="m", mode="ask")
    store.add_message(info.id, {"role": "user", "content": "x"})
    store.delete(info.id)
    with pytest.raises(NotFound):
        store.get(info.id)
    assert store.messages(info.id) == []


def test_exports_json_and_markdown(store: SessionStore) -> None:
    info = store.create(model="openai/x", mode="auto-edit", title="t")
    store.add_message(info.id, {"role": "user", "content": "read it"})
    call = {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}}
    store.add_message(info.id, {"role": "assistant", "content": None, "tool_calls": [call]})
    store.add_message(info.id, {"role": "tool", "tool_call_id": "c1", "content": "hello"})
    exported = store.export_json(info.id)
    assert exported["session"]["mode"] == "auto-edit"
    assert [m["role"] for m in exported["messages"]] == ["user", "assistant", "tool"]
    json.dumps(exported)  # serialisable as is
    markdown = store.export_markdown(info.id)
    assert "## user" in markdown and "read_file" in markdown and "hello" in markdown


def test_api_keys_never_reach_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-live-0123456789abcdef"
    password = 'pa"ss\\word42'  # stored JSON-escaped: the escaped form must go too
    bearer = "Bearer abcdefgh12345678"  # no variable holds it: caught by its pattern
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    monkeypatch.setenv("PGPASSWORD", password)
    store = SessionStore.in_home(tmp_path / "h")
    info = store.create(model="m", mode="ask", title=f"use {secret}")
    store.add_message(info.id, {"role": "user", "content": f"my key is {secret}, {password}, {bearer}"})
    store.add_event(info.id, StreamEvent(type="text", text=secret + password))
    store.close()
    raw = (tmp_path / "h" / "sessions.sqlite3").read_bytes()
    wal = tmp_path / "h" / "sessions.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    for leaked in (secret, json.dumps(password)[1:-1], "abcdefgh12345678"):
        assert leaked.encode() not in raw
    reopened = SessionStore.in_home(tmp_path / "h")
    expected = f"my key is {REDACTED}, {REDACTED}, Bearer [redacted:bearer]"
    assert reopened.messages(info.id)[0]["content"] == expected


OLD_SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'new', created REAL NOT NULL,
    updated REAL NOT NULL, steps INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0, cached_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0);
CREATE TABLE messages (session_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (session_id, seq));
CREATE TABLE events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (session_id, seq));
INSERT INTO sessions (id, title, created, updated) VALUES ('abc123', 'from before the ladder', 1, 2);
"""


def test_a_database_from_before_the_migration_ladder_is_kept_and_versioned(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(OLD_SCHEMA)
    store = SessionStore(path)
    try:
        assert store.get("abc123").title == "from before the ladder"
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_database_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite3"
    with sqlite3.connect(path) as newer:
        newer.executescript(OLD_SCHEMA + f"PRAGMA user_version = {len(MIGRATIONS) + 1};")
    with pytest.raises(ConfigError, match="newer assista-odoo") as caught:
        SessionStore(path)
    assert "ASSISTA_HOME" in (caught.value.hint or "")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1


def test_show_of_a_failed_session_says_why(store: SessionStore) -> None:
    info = store.create(model="m", mode="ask")
    store.add_message(info.id, {"role": "user", "content": "do it"})
    failure = "m: The model request failed (400): bad tool schema"
    store.add_event(info.id, StreamEvent(type="error", text=failure))
    end = StreamEvent(type="end", text="The model could not answer.", data={"status": "error"})
    store.add_event(info.id, end)
    store.update(info.id, status="error")
    shown = store.export_markdown(info.id)
    assert "## errors" in shown and "bad tool schema" in shown
    assert "## outcome: error" in shown and "The model could not answer." in shown
