"""Building an AgentLoop for tests: the real model client against the scripted server, real MCP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.agent_loop import AgentLoop
from assista_mcp.agent.loop.approvals import Approvals, Prompter
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.loop.toolset import ServerSpec, Toolset
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.safety.plugins import Hooks
from fixtures.model_server import ScriptedModelServer
from tests.agent.tool_servers import SlowState, build_test_server


def call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "name": name, "arguments": arguments}


def tool_messages(request: dict[str, Any]) -> dict[str, str]:
    """tool_call_id -> content of the tool results in one request the model received."""
    return {m["tool_call_id"]: m["content"] for m in request["messages"] if m["role"] == "tool"}


@asynccontextmanager
async def agent(
    model_server: ScriptedModelServer,
    root: Path,
    *,
    mode: str = "yolo",
    store: SessionStore | None = None,
    session_id: str | None = None,
    max_steps: int = 10,
    hooks: object | None = None,
    prompter: Prompter | None = None,
    slow: SlowState | None = None,
    specs: list[ServerSpec] | None = None,
    sink: Callable[[StreamEvent], None] | None = None,
) -> AsyncIterator[tuple[AgentLoop, list[StreamEvent]]]:
    store = store or SessionStore.in_home(root.parent / "home")
    if session_id is None:
        session_id = store.create(model=model_server.litellm_model, mode=mode).id
    model_id = model_server.litellm_model
    model = ModelClient(model_id, api_base=model_server.api_base, base_delay=0.01, timeout=30)
    events: list[StreamEvent] = []
    specs = specs or [ServerSpec("assista", build_test_server(root, slow), own=True)]
    async with Toolset(specs) as toolset:
        loop = AgentLoop(
            model=model,
            toolset=toolset,
            approvals=Approvals(mode, prompter),
            store=store,
            session_id=session_id,
            system="You are a test agent.",
            max_steps=max_steps,
            hooks=hooks if hooks is None or isinstance(hooks, Hooks) else Hooks.of(hooks),
            sinks=[events.append, *([sink] if sink else [])],
        )
        try:
            yield loop, events
        finally:
            loop.close()
