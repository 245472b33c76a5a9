"""Fixtures for the agent tests: the scripted model servers.

``model_server(script)`` starts a :class:`ScriptedModelServer` (stopped at teardown) and returns it;
talk to it with ``server.litellm_model`` and ``api_base=server.api_base``. The fixture sets the fake
API key and keeps LiteLLM on its bundled cost map (no network fetch). ``@EVERY_PROVIDER`` runs a
test once per provider family (OpenAI-compatible, Anthropic Messages, Gemini), each over its own
wire format; ``server.requests`` reads the same (OpenAI chat shape) for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fixtures.model_server import API_KEY_VARIABLES, SERVERS, TEST_API_KEY, TEST_MODEL, ScriptedModelServer

__all__ = ["EVERY_PROVIDER", "TEST_MODEL", "ScriptedModelServer"]

StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]
EVERY_PROVIDER = pytest.mark.parametrize("model_server", list(SERVERS), indirect=True)


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake provider key and no remote cost-map fetch, for anything that imports LiteLLM."""
    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture
def model_server(
    request: pytest.FixtureRequest, model_env: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[StartServer]:
    """Factory: ``server = model_server([{"text": "hi"}])``; ``server.requests`` holds the bodies.

    Indirectly parametrized with a provider family (``EVERY_PROVIDER``); OpenAI-compatible if not."""
    family = getattr(request, "param", "openai")
    monkeypatch.setenv(API_KEY_VARIABLES[family], TEST_API_KEY)
    started: list[ScriptedModelServer] = []

    def start(script: list[dict[str, Any]]) -> ScriptedModelServer:
        server = SERVERS[family](script)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
