"""Benchmark the model side: one streamed ModelClient.complete call against a zero-latency server.

    .venv/bin/python benchmarks/model_call_overhead.py [--calls 200]

Side by side in one run, against the same scripted OpenAI-compatible server (its own process) and
the same answer
(text split in 20 chunks plus two tool calls with split arguments):
- raw: httpx streaming the SSE body and decoding each chunk with json (the floor);
- ModelClient: LiteLLM's real streaming path, our assembly, usage, cost and event callbacks.
Prints p50/p99 per call in milliseconds, the ratio to raw, and the share of the agent's per-step
budget (goal: loop overhead <= 20 ms p50, of which the model call is one part).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENAI_API_KEY", "test-key")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import httpx

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.model.provider import load_litellm
from fixtures.model_server import SCRIPT_PATH, TEST_MODEL

STEP_BUDGET_MS = 20.0
MESSAGES = [{"role": "user", "content": "Add an edition field to library.book"}]
STEP: dict[str, Any] = {
    "text": "I will read the model first, then add the field. " * 2,
    "split": 5,
    "tool_calls": [
        {"id": "c1", "name": "read_file", "arguments": '{"path": "library_base/models/library_book.py"}'},
        {"id": "c2", "name": "list_directory", "arguments": '{"path": "library_base"}'},
    ],
    "usage": {"prompt_tokens": 1200, "completion_tokens": 60, "cached_tokens": 1000},
}


def count_chunks() -> int:
    text = sum(1 for _ in range(0, len(STEP["text"]), STEP["split"]))
    args = sum(-(-len(c["arguments"]) // STEP["split"]) for c in STEP["tool_calls"])
    return 1 + text + args + 2  # role chunk, pieces, finish chunk, usage chunk


def percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1] if len(samples) > 1 else samples[0]


async def call_raw(client: httpx.AsyncClient, api_base: str) -> None:
    body = {"model": "test-model", "messages": MESSAGES, "stream": True}
    body["stream_options"] = {"include_usage": True}
    async with client.stream("POST", api_base + "/chat/completions", json=body) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: {"):
                json.loads(line[6:])


async def call_litellm(api_base: str) -> None:
    """The same request ModelClient makes, without our assembly, events, cost and timeouts."""
    stream = await load_litellm().acompletion(
        model=TEST_MODEL,
        api_base=api_base,
        messages=MESSAGES,
        stream=True,
        stream_options={"include_usage": True},
        max_retries=0,
        num_retries=0,
    )
    async for _chunk in stream:
        pass


async def call_client(client: ModelClient) -> None:
    events: list[StreamEvent] = []
    reply = await client.complete(MESSAGES, [], events.append)
    assert len(reply.tool_calls) == 2 and events[-1].type == "usage"


async def measure(api_base: str, calls: int) -> dict[str, list[float]]:
    """Interleaved (raw, litellm, ModelClient) per round, so load on the machine hits all alike."""
    samples: dict[str, list[float]] = {"raw httpx + json": [], "bare litellm stream": [], "ModelClient": []}
    model_client = ModelClient(TEST_MODEL, api_base=api_base)
    async with httpx.AsyncClient() as http:
        runs = (
            lambda: call_raw(http, api_base),
            lambda: call_litellm(api_base),
            lambda: call_client(model_client),
        )
        for _ in range(calls):
            for label, run in zip(samples, runs, strict=True):
                started = time.perf_counter()
                await run()
                samples[label].append((time.perf_counter() - started) * 1000)
    return samples


@contextlib.contextmanager
def server_process(steps: int) -> Iterator[str]:
    """The scripted server in its own process, so it does not share this process's GIL."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "script.json"
        script.write_text(json.dumps([STEP] * steps), encoding="utf-8")
        argv = [sys.executable, str(SCRIPT_PATH), str(script), "--port", "0"]
        with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as proc:
            try:
                assert proc.stdout is not None
                yield proc.stdout.readline().strip() + "/v1"
            finally:
                proc.terminate()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    warmup = 5
    with server_process(3 * (args.calls + warmup)) as api_base:
        await measure(api_base, warmup)  # imports LiteLLM, opens the connection pools
        results = await measure(api_base, args.calls)
    raw_p50, bare_p50, ours_p50 = (statistics.median(samples) for samples in results.values())
    print(f"{args.calls} rounds, one answer per call ({count_chunks()} SSE chunks, 2 tool calls)")
    for label, samples in results.items():
        print(f"{label:22} p50 {statistics.median(samples):7.2f} ms   p99 {percentile(samples, 99):7.2f} ms")
    print(f"ratio litellm/raw (p50): {bare_p50 / raw_p50:.1f}x")
    print(f"ratio ModelClient/litellm (p50): {ours_p50 / bare_p50:.2f}x (assembly, events, cost, timeouts)")
    share = ours_p50 / STEP_BUDGET_MS
    print(f"ModelClient p50 as share of the {STEP_BUDGET_MS:.0f} ms per-step goal: {share:.0%}")


if __name__ == "__main__":
    asyncio.run(main())
