"""Agent sessions in SQLite: every message and event is written the moment it happens.

One file, ``<home>/sessions.sqlite3`` (``ASSISTA_HOME`` / ``Settings.home``), in WAL mode so a reader
(``assista-odoo sessions show``) never blocks a running agent. A crash or Ctrl-C loses nothing
already said. The stored history is the full history; what is sent to a model may be condensed.
Secrets (values of ``*_API_KEY``-style environment variables, also base64-encoded, and token
formats) are redacted before anything is stored, by the one rule (``assista_mcp.safety.redaction``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from assista_mcp.agent.events import StreamEvent, Usage
from assista_mcp.agent.loop.session_schema import create_private, migrate
from assista_mcp.safety.redaction import Redactor, redactor
from odoo_tools.errors import InvalidInput, NotFound

DB_NAME = "sessions.sqlite3"


SESSION_COLUMNS = (
    "id, title, model, mode, status, created, updated, steps, "
    "prompt_tokens, completion_tokens, cached_tokens, cost_usd"
)


class SessionInfo(BaseModel):
    id: str
    title: str
    model: str
    mode: str
    status: str
    created: float
    updated: float
    steps: int
    usage: Usage


class SessionStore:
    """The sessions database. Use from one thread (the agent's event loop)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = path
        create_private(path)  # conversations are the user's alone; SQLite's -wal/-shm follow its mode
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        migrate(self._db, path)
        self._redactor: Redactor = redactor()

    @classmethod
    def in_home(cls, home: Path) -> SessionStore:
        return cls(home / DB_NAME)

    def close(self) -> None:
        self._db.close()

    # -- sessions -----------------------------------------------------------------------------
    def create(self, *, model: str, mode: str, title: str = "") -> SessionInfo:
        now = time.time()
        session_id = uuid.uuid4().hex[:12]
        self._db.execute(
            "INSERT INTO sessions (id, title, model, mode, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
            (session_id, self._redact(title)[:200], model, mode, now, now),
        )
        return self.get(session_id)

    def get(self, session_id: str) -> SessionInfo:
        """A session by id or by a unique id prefix."""
        if not re.fullmatch(r"[0-9a-f]{1,32}", session_id):
            raise NotFound(
                f"No session {session_id!r}.", "Session ids are hex, see `assista-odoo sessions list`."
            )
        rows = self._db.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ? OR id LIKE ? ORDER BY id = ? DESC",
            (session_id, session_id + "%", session_id),
        ).fetchall()
        if not rows:
            raise NotFound(f"No session {session_id!r}.", "List sessions with `assista-odoo sessions list`.")
        if len(rows) > 1 and rows[0][0] != session_id:
            raise InvalidInput(
                f"Session prefix {session_id!r} is ambiguous.", "Give more characters of the id."
            )
        return _info(rows[0])

    def latest(self) -> SessionInfo | None:
        query = f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY updated DESC LIMIT 1"
        row = self._db.execute(query).fetchone()
        return _info(row) if row else None

    def list_sessions(self, limit: int = 50) -> list[SessionInfo]:
        rows = self._db.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY updated DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_info(row) for row in rows]

    def update(self, session_id: str, **fields: str) -> None:
        """Set ``title``, ``model``, ``mode`` or ``status``."""
        allowed = {"title", "model", "mode", "status"}
        for key, value in fields.items():
            if key not in allowed:
                raise InvalidInput(f"Cannot update session field {key!r}.")
            self._db.execute(
                f"UPDATE sessions SET {key} = ?, updated = ? WHERE id = ?",
                (self._redact(value), time.time(), session_id),
            )

    def add_usage(self, session_id: str, usage: Usage, steps: int = 1) -> None:
        self._db.execute(
            "UPDATE sessions SET steps = steps + ?, prompt_tokens = prompt_tokens + ?, "
            "completion_tokens = completion_tokens + ?, cached_tokens = cached_tokens + ?, "
            "cost_usd = cost_usd + ?, updated = ? WHERE id = ?",
            (
                steps,
                usage.prompt_tokens,
                usage.completion_tokens,
                usage.cached_tokens,
                usage.cost_usd,
                time.time(),
                session_id,
            ),
        )

    def delete(self, session_id: str) -> SessionInfo:
        info = self.get(session_id)
        self._db.execute("DELETE FROM sessions WHERE id = ?", (info.id,))
        return info

    # -- history ------------------------------------------------------------------------------
    def add_message(self, session_id: str, message: dict[str, Any]) -> None:
        """Append one chat message (OpenAI format) to the stored history."""
        body = json.dumps(self._redactor.data(message), ensure_ascii=False)
        now = time.time()
        self._db.execute(
            "INSERT INTO messages (session_id, seq, body, at) VALUES "
            "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = ?), ?, ?)",
            (session_id, session_id, body, now),
        )
        self._db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (now, session_id))

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT body FROM messages WHERE session_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def add_event(self, session_id: str, event: StreamEvent) -> None:
        self._db.execute(
            "INSERT INTO events (session_id, seq, type, body) VALUES "
            "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session_id = ?), ?, ?)",
            (
                session_id,
                session_id,
                event.type,
                json.dumps(self._redactor.data(event.model_dump(mode="json"))),
            ),
        )

    def events(self, session_id: str) -> list[StreamEvent]:
        rows = self._db.execute(
            "SELECT body FROM events WHERE session_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
        return [StreamEvent.model_validate_json(row[0]) for row in rows]

    # -- export -------------------------------------------------------------------------------
    def export_json(self, session_id: str) -> dict[str, Any]:
        info = self.get(session_id)
        return {
            "session": info.model_dump(),
            "messages": self._redactor.data(self.messages(info.id)),  # also sessions stored before
            "events": self._redactor.data([event.model_dump() for event in self.events(info.id)]),
        }

    def export_markdown(self, session_id: str) -> str:
        info = self.get(session_id)
        lines = [
            f"# Session {info.id}: {info.title}",
            "",
            f"- model: {info.model}",
            f"- mode: {info.mode}",
            f"- status: {info.status}",
            f"- steps: {info.steps}",
            f"- tokens: {info.usage.prompt_tokens} in ({info.usage.cached_tokens} cached), "
            f"{info.usage.completion_tokens} out; cost ${info.usage.cost_usd:.4f}",
            "",
        ]
        for message in self.messages(info.id):
            lines.extend(_message_markdown(message))
        lines.extend(_outcome_markdown(self.events(info.id)))
        return self._redact("\n".join(lines))

    def _redact(self, text: str) -> str:
        return self._redactor.text(text)


def _info(row: tuple[Any, ...]) -> SessionInfo:
    (sid, title, model, mode, status, created, updated, steps, p_tok, c_tok, cached, cost) = row
    return SessionInfo(
        id=sid,
        title=title,
        model=model,
        mode=mode,
        status=status,
        created=created,
        updated=updated,
        steps=steps,
        usage=Usage(prompt_tokens=p_tok, completion_tokens=c_tok, cached_tokens=cached, cost_usd=cost),
    )


def _outcome_markdown(events: list[StreamEvent]) -> list[str]:
    """How the session went: its errors (retries, a provider's refusal) and the last turn's end."""
    lines: list[str] = []
    errors = [event.text for event in events if event.type == "error" and event.text]
    if errors:
        lines += ["## errors", "", *(f"- {text}" for text in errors), ""]
    ends = [event for event in events if event.type == "end"]
    if ends and ends[-1].text:
        status = (ends[-1].data or {}).get("status", "")
        lines += [f"## outcome: {status}" if status else "## outcome", "", ends[-1].text, ""]
    return lines


def _message_markdown(message: dict[str, Any]) -> list[str]:
    role = message.get("role", "?")
    content = message.get("content") or ""
    if role == "tool":
        return [f"**tool result** `{message.get('tool_call_id', '')}`:", "", "```", str(content), "```", ""]
    lines = [f"## {role}", ""]
    if content:
        lines += [str(content), ""]
    for call in message.get("tool_calls") or []:
        function = call.get("function", {})
        lines += [f"**tool call** `{function.get('name')}` `{function.get('arguments')}`", ""]
    return lines
