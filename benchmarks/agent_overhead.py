"""Benchmark the agent loop's own per-step overhead: MCP call + rendering + session writes.

    .venv/bin/python benchmarks/agent_overhead.py [--steps 100]

One run of the real loop against the scripted OpenAI-compatible server with zero latency: every
step the model asks for one quick read-only tool (``file_info`` on the example addons, through
our in-process MCP server), then the final step answers. Per step it separates
- model call: from the request to the end of the streamed answer (LiteLLM + local HTTP),
- loop overhead: everything else (storing messages and events, approvals, the MCP tool call,
  rendering to a terminal console, building the next request).
Prints p50/p99 in milliseconds for both renderers (rich terminal, JSON lines) and the ratio of
the loop overhead p50 to the goal (<= 20 ms), next to the same MCP call made bare (no loop).
The gap between the bare call and the in-loop tool call is mostly LiteLLM's own success-logging
task, which LiteLLM schedules on the event loop at the end of every stream and which therefore
runs while the first tool call of the step is under way.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENAI_API_KEY", "test-key")

import anyio
from rich.console import Console

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.agent_loop import AgentLoop
from assista_mcp.agent.loop.approvals import Approvals
from assista_mcp.agent.loop.hooks import NoHooks
from assista_mcp.agent.loop.sessions import SessionStore
from assista_mcp.agent.loop.toolset import Toolset, own_spec
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.terminal.render import ConsoleRenderer, JsonlRenderer
from assista_mcp.config.loading import load_settings
from fixtures.model_server import TEST_MODEL, ScriptedModelServer

GOAL_MS = 20.0
REPO = Path(__file__).resolve().parent.parent


class Clock(NoHooks):
    """Marks when each model call starts and when its answer has fully arrived (usage event)."""

    def __init__(self) -> None:
        self.model_start: list[float] = []
        self.model_end: list[float] = []
        self.tool_start: list[float] = []
        self.tool_end: list[float] = []

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        self.model_start.append(time.perf_counter())

    def on_event(self, event: StreamEvent) -> None:
        if event.type == "usage":
            self.model_end.append(time.perf_counter())
        elif event.type == "tool_call":
            self.tool_start.append(time.perf_counter())
        elif event.type == "tool_result":
            self.tool_end.append(time.perf_counter())


def script(steps: int) -> list[dict[str, Any]]:
    ask = {
        "text": "Checking the manifest.",
        "tool_calls": [
            {"id": "", "name": "file_info", "arguments": {"path": "library_base/__manifest__.py"}}
        ],
    }
    return [dict(ask) for _ in range(steps)] + [{"text": "Done."}]


Figures = dict[str, list[float]]


async def measure(steps: int, renderer_name: str, workdir: Path) -> Figures:
    addons = workdir / f"addons-{renderer_name}"
    shutil.copytree(REPO / "fixtures" / "addons", addons)
    settings = load_settings({"addons_paths": [addons], "home": workdir / "home"}, env={}, cwd=workdir)
    server = ScriptedModelServer(script(steps))
    server.start()
    store = SessionStore.in_home(settings.home)
    session = store.create(model=TEST_MODEL, mode="ask")
    sink = (
        ConsoleRenderer(Console(file=io.StringIO(), force_terminal=True, width=120))
        if renderer_name == "terminal"
        else JsonlRenderer(io.StringIO())
    )
    clock = Clock()
    try:
        async with Toolset([own_spec(settings)]) as toolset:
            loop = AgentLoop(
                model=ModelClient(TEST_MODEL, api_base=server.api_base),
                toolset=toolset,
                approvals=Approvals("ask"),
                store=store,
                session_id=session.id,
                system="benchmark",
                max_steps=steps + 1,
                hooks=clock,
                sinks=[sink],
            )
            result = await loop.run_turn("benchmark")
            assert result.status == "final", result
    finally:
        server.stop()
        store.close()
    model = [(e - s) * 1000 for s, e in zip(clock.model_start, clock.model_end, strict=True)]
    overhead = [(nxt - end) * 1000 for end, nxt in zip(clock.model_end, clock.model_start[1:], strict=False)]
    tool = [(e - s) * 1000 for s, e in zip(clock.tool_start, clock.tool_end, strict=True)]
    own = [o - t for o, t in zip(overhead, tool, strict=True)]
    # The first step warms caches (imports, first MCP call): left out.
    return {
        "model call": model[1:],
        "loop overhead": overhead[1:],
        "  of which MCP tool call": tool[1:],
        "  of which loop's own work": own[1:],
    }


async def bare_calls(count: int, workdir: Path) -> list[float]:
    """The same MCP tool call without the loop around it: the floor for the tool share."""
    addons = workdir / "addons-bare"
    shutil.copytree(REPO / "fixtures" / "addons", addons)
    settings = load_settings({"addons_paths": [addons], "home": workdir / "home"}, env={}, cwd=workdir)
    async with Toolset([own_spec(settings)]) as toolset:
        tool = toolset.tools["file_info"]
        times = []
        for _ in range(count + 1):
            start = time.perf_counter()
            await toolset.call(tool, {"path": "library_base/__manifest__.py"})
            times.append((time.perf_counter() - start) * 1000)
    return times[1:]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"agent loop, {args.steps} steps, each one quick read-only MCP tool call, zero model latency")
        bare = anyio.run(bare_calls, args.steps, Path(tmp))
        print(f"bare MCP call_tool(file_info): p50 {pct(bare, 0.5):.2f} ms  p99 {pct(bare, 0.99):.2f} ms")
        for name in ("terminal", "jsonl"):
            figures = anyio.run(measure, args.steps, name, Path(tmp))
            print(f"renderer: {name}")
            for label, values in figures.items():
                print(
                    f"  {label:<28} p50 {pct(values, 0.5):7.2f} ms  p99 {pct(values, 0.99):7.2f} ms  "
                    f"mean {statistics.mean(values):7.2f} ms"
                )
            p50 = pct(figures["loop overhead"], 0.5)
            print(f"  loop overhead p50 {p50:.2f} ms vs goal <= {GOAL_MS:.0f} ms: ratio {p50 / GOAL_MS:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
