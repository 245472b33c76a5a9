"""Secrets in streamed text and in encoded forms never reach the console, ``--events jsonl`` or
the session store: the stream is held back by the secret formats themselves (not a word count),
and a secret variable's value is matched raw, JSON-escaped, URL-encoded and in base64."""

from __future__ import annotations

import base64
import io
import json
import random
import string
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.hooks import Hooks
from assista_mcp.agent.loop.outlet import EventOutlet
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.terminal.render import JsonlRenderer
from assista_mcp.safety.redaction import REDACTED, Redactor, StreamRedactor, secret_values


def _rand(n: int, seed: int) -> str:
    picker = random.Random(seed)
    return "".join(picker.choice(string.ascii_letters + string.digits + "/+") for _ in range(n))


def _through_outlet(tmp_path: Path, pieces: list[str], other: StreamEvent | None = None) -> tuple[str, str]:
    """(what ``--events jsonl`` printed, the session's JSON export) for ``pieces`` streamed."""
    store = SessionStore.in_home(tmp_path / "home")
    session = store.create(model="m", mode="ask").id
    out = io.StringIO()
    outlet = EventOutlet(store, [JsonlRenderer(out)], Hooks.of())
    for piece in pieces:
        outlet.send(session, StreamEvent(type="text", text=piece))
    outlet.send(session, other or StreamEvent(type="end", text="done"))
    exported = json.dumps(store.export_json(session))
    store.close()
    return out.getvalue(), exported


@pytest.mark.parametrize("lead", [70, 72, 74, 100])
def test_a_five_word_aws_lead_in_on_a_long_streamed_line_is_held_whole(tmp_path: Path, lead: int) -> None:
    """The release point of a long line falls inside the key for some ``lead``: a holder of the
    last 4 words released "AWS" and kept "Secret Access Key: <value>", which no rule matches."""
    secret = _rand(40, 1)
    text = "word " * lead + "AWS Secret Access Key: " + secret + " then " + "more words " * 60
    for size in (1, 4, 9):
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        jsonl, exported = _through_outlet(tmp_path / str(size), pieces)
        assert secret not in jsonl and secret not in exported
        assert "[redacted:aws-secret]" in jsonl
        streamed = StreamRedactor()
        shown = "".join(streamed.feed(p) for p in pieces) + streamed.flush()
        assert secret not in shown and shown.count("more words") == 60  # nothing lost either


def test_long_lines_are_still_released_before_their_end() -> None:
    streamed = StreamRedactor()
    released = "".join(streamed.feed("plain words here ") for _ in range(100))
    assert len(released) > 1000  # a long line without secrets is not held to its end


@pytest.mark.parametrize("password", ['pa"ss\\word-42xyz', "p@ss w/rd&key=1é"])
def test_a_secret_value_is_matched_in_its_encoded_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password: str
) -> None:
    monkeypatch.setenv("PGPASSWORD", password)
    forms = {
        "json": json.dumps(password)[1:-1],
        "json ascii": json.dumps(password, ensure_ascii=True)[1:-1],
        "json twice": json.dumps(json.dumps(password))[1:-1],
        "url": quote(password, safe=""),
        "url plus": quote_plus(password),
        "base64": base64.b64encode(password.encode()).decode(),
    }
    redactor = Redactor(secret_values())
    for name, form in forms.items():
        assert form not in redactor.text(f"value: {form} end"), name
    tool_output = json.dumps({"env": {"PGPASSWORD": password}})  # a tool result's text is JSON
    jsonl, exported = _through_outlet(
        tmp_path, [], StreamEvent(type="tool_result", tool_name="odoo_doctor", text=tool_output)
    )
    for name in ("json", "json twice"):
        assert forms[name] not in jsonl and forms[name] not in exported, name
    assert REDACTED in jsonl
