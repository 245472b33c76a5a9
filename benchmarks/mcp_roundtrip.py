"""Round-trip latency of ``read_file`` over stdio, ours against the reference Node server.

Run: .venv/bin/python benchmarks/mcp_roundtrip.py [--calls 500] [--no-reference]

Every server runs as a subprocess driven by the same SDK client over stdio, reading the same
4 KB file: ``assista-odoo serve`` (``read_file``), the same server on the SDK's own threaded
stdio transport (what ``serve`` used before; shows the transport's share), and
``@modelcontextprotocol/server-filesystem``'s ``read_text_file`` (``npx -y``, when npx exists).
Calls alternate between the servers, so machine load hits all of them alike. Prints p50/p99 of
each and the ratio ours/reference. Goal: p50 <= 5 ms and ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

FILE_REL = "bench_module/data/sample.txt"
WARMUP_CALLS = 30
GOAL_P50_MS = 5.0
GOAL_RATIO = 1.5
# The pre-change transport: our server, served by MCPServer.run("stdio") (the SDK's stdio_server).
SDK_TRANSPORT = (
    "import sys; from assista_mcp.server.mcp_server import build_server; "
    "from assista_mcp.config.loading import load_settings; "
    "build_server(load_settings({'addons_paths': [sys.argv[1]]})).run('stdio')"
)


@dataclass
class Target:
    label: str
    params: StdioServerParameters
    tool: str
    arguments: dict[str, Any]
    timings: list[float]


def make_tree(base: Path) -> Path:
    target = base / "addons" / FILE_REL
    target.parent.mkdir(parents=True)
    line = "# a line of an Odoo addon file, about sixty-four bytes long.\n"
    target.write_text((line * (4096 // len(line) + 1))[:4096])
    return base / "addons"


def targets(addons: Path, tmp: str, with_reference: bool, with_sdk_transport: bool) -> list[Target]:
    python = sys.executable
    ours = {"paths": FILE_REL}
    chosen = [
        Target(
            "assista-odoo serve",
            StdioServerParameters(
                command=python, args=["-m", "assista_mcp", "serve", "--addons-path", str(addons)], cwd=tmp
            ),
            "read_file",
            ours,
            [],
        )
    ]
    if with_sdk_transport:
        params = StdioServerParameters(command=python, args=["-c", SDK_TRANSPORT, str(addons)], cwd=tmp)
        chosen.append(Target("same, SDK stdio transport", params, "read_file", ours, []))
    npx = shutil.which("npx")
    if with_reference and npx:
        params = StdioServerParameters(
            command=npx, args=["-y", "@modelcontextprotocol/server-filesystem", str(addons)], cwd=tmp
        )
        chosen.append(
            Target("server-filesystem (Node)", params, "read_text_file", {"path": str(addons / FILE_REL)}, [])
        )
    elif with_reference:
        print("reference: skipped (npx not found)")
    return chosen


async def call(client: Client, target: Target) -> float:
    started = time.perf_counter()
    result = await client.call_tool(target.tool, target.arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise SystemExit(f"{target.label}: call failed: {result.content}")
    return elapsed


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def run(calls: int, with_reference: bool, with_sdk_transport: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="assista-bench-") as tmp:
        addons = make_tree(Path(tmp))
        chosen = targets(addons, tmp, with_reference, with_sdk_transport)
        async with AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(Client(t.params, cache=None)) for t in chosen]
            for client, target in zip(clients, chosen, strict=True):
                for _ in range(WARMUP_CALLS):
                    await call(client, target)
            for _ in range(calls):  # alternate, so load spikes hit every server alike
                for client, target in zip(clients, chosen, strict=True):
                    target.timings.append(await call(client, target))
        print(
            f"\nread_file of a 4096-byte file over stdio: {calls} calls each, interleaved, "
            f"after {WARMUP_CALLS} warm-up calls"
        )
        for target in chosen:
            t = target.timings
            print(
                f"  {target.label:<28} p50 {percentile(t, 0.5):6.2f} ms   p99 {percentile(t, 0.99):6.2f} ms"
                f"   mean {statistics.fmean(t):6.2f} ms"
            )
        ours_p50 = percentile(chosen[0].timings, 0.5)
        for target in chosen[1:]:
            print(f"  ratio serve / {target.label}: {ours_p50 / percentile(target.timings, 0.5):.2f}")
        print(
            f"  goal: p50 <= {GOAL_P50_MS} ms ({'met' if ours_p50 <= GOAL_P50_MS else 'NOT met'}), "
            f"ratio to the Node reference <= {GOAL_RATIO}"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--no-reference", action="store_true", help="skip the Node reference server")
    parser.add_argument("--no-sdk-transport", action="store_true", help="skip the SDK-transport comparison")
    args = parser.parse_args()
    return anyio.run(run, args.calls, not args.no_reference, not args.no_sdk_transport)


if __name__ == "__main__":
    raise SystemExit(main())
