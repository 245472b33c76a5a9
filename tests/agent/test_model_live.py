"""Opt-in: one real model call through the same client (skipped unless ASSISTA_TEST_MODEL is set).

Example: ``ASSISTA_TEST_MODEL=openai/gpt-4o-mini OPENAI_API_KEY=... pytest tests/agent/test_model_live.py``;
``ASSISTA_TEST_API_BASE`` reaches an OpenAI-compatible endpoint (a local Ollama, vLLM, LM Studio...).
"""

from __future__ import annotations

import json
import os

import pytest

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.model.client import ModelClient

LIVE_MODEL = os.environ.get("ASSISTA_TEST_MODEL", "")
pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not LIVE_MODEL, reason="set ASSISTA_TEST_MODEL to run against a real model"),
]
ECHO_TOOL = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file of the addons path and return its text.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "path relative to the addons root"}},
            "required": ["path"],
        },
    },
}


async def test_a_real_model_calls_a_tool_and_reports_usage() -> None:
    client = ModelClient(LIVE_MODEL, api_base=os.environ.get("ASSISTA_TEST_API_BASE") or None, timeout=60)
    events: list[StreamEvent] = []
    messages = [{"role": "user", "content": "Read library_base/__manifest__.py with the read_file tool."}]
    reply = await client.complete(messages, [ECHO_TOOL], events.append)
    assert reply.tool_calls, reply.text
    assert reply.tool_calls[0].name == "read_file"
    assert "library_base" in json.loads(reply.tool_calls[0].arguments)["path"]
    assert reply.usage.prompt_tokens > 0
    assert [e.type for e in events][-1] == "usage"
