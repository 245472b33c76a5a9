"""Fixtures for the agent tests: the scripted OpenAI-compatible model server.

``model_server(script)`` starts a :class:`ScriptedModelServer` (stopped at teardown) and returns it;
talk to it with ``TEST_MODEL`` and ``api_base=server.api_base``. The fixture sets the fake
``OPENAI_API_KEY`` and keeps LiteLLM on its bundled cost map (no network fetch).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fixtures.model_server import TEST_API_KEY, TEST_MODEL, ScriptedModelServer

__all__ = ["TEST_MODEL", "ScriptedModelServer"]

StartServer = Callable[[list[dict[str, Any]]], ScriptedModelServer]


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake provider key and no remote cost-map fetch, for anything that imports LiteLLM."""
    monkeypatch.setenv("OPENAI_API_KEY", TEST_API_KEY)
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture
def model_server(model_env: None) -> Iterator[StartServer]:
    """Factory: ``server = model_server([{"text": "hi"}])``; ``server.requests`` holds the bodies."""
    started: list[ScriptedModelServer] = []

    def start(script: list[dict[str, Any]]) -> ScriptedModelServer:
        server = ScriptedModelServer(script)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
