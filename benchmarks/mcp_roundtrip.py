"""Round-trip latency of ``read_file`` over stdio, ours against the reference Node server.

Run: .venv/bin/python benchmarks/mcp_roundtrip.py [--calls 500] [--no-reference]

Both servers run as subprocesses and are driven by the same SDK client over stdio, reading the
same 4 KB file: our ``read_file`` and ``@modelcontextprotocol/server-filesystem``'s
``read_text_file`` (started with ``npx -y`` when npx is available). Prints p50/p99 of each and
the ratio ours/reference. Goal: p50 <= 5 ms and ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

FILE_REL = "bench_module/data/sample.txt"
WARMUP_CALLS = 30
GOAL_P50_MS = 5.0
GOAL_RATIO = 1.5


def make_tree(base: Path) -> Path:
    target = base / "addons" / FILE_REL
    target.parent.mkdir(parents=True)
    line = "# a line of an Odoo addon file, about sixty-four bytes long.\n"
    target.write_text((line * (4096 // len(line) + 1))[:4096])
    return base / "addons"


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(
    params: StdioServerParameters,
    tool: str,
    arguments: dict[str, Any],
    calls: int,
    check: Callable[[Any], None],
) -> list[float]:
    """Milliseconds per call, after a warm-up."""
    async with Client(params, cache=None) as client:
        for _ in range(WARMUP_CALLS):
            check(await client.call_tool(tool, arguments))
        timings: list[float] = []
        for _ in range(calls):
            started = time.perf_counter()
            result = await client.call_tool(tool, arguments)
            timings.append((time.perf_counter() - started) * 1000)
            check(result)
        return timings


def check_ok(result: Any) -> None:
    if result.is_error:
        raise SystemExit(f"benchmark call failed: {result.content}")


def report(name: str, timings: list[float]) -> float:
    p50, p99 = percentile(timings, 0.50), percentile(timings, 0.99)
    print(
        f"{name:<34} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   "
        f"mean {statistics.fmean(timings):7.3f} ms   n={len(timings)}"
    )
    return p50


async def run(calls: int, with_reference: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="assista-bench-") as tmp:
        addons = make_tree(Path(tmp))
        ours = StdioServerParameters(
            command=sys.executable,
            args=["-m", "assista_mcp", "serve", "--addons-path", str(addons)],
            cwd=tmp,
        )
        print(f"read_file of a 4096-byte file, {calls} calls over stdio (after {WARMUP_CALLS} warm-up calls)")
        ours_p50 = report(
            "assista-odoo read_file",
            await measure(ours, "read_file", {"paths": FILE_REL}, calls, check_ok),
        )
        npx = shutil.which("npx")
        if not with_reference or npx is None:
            print("reference: skipped" + ("" if npx else " (npx not found)"))
        else:
            reference = StdioServerParameters(
                command=npx, args=["-y", "@modelcontextprotocol/server-filesystem", str(addons)], cwd=tmp
            )
            ref_args = {"path": str(addons / FILE_REL)}
            ref_p50 = report(
                "server-filesystem read_text_file",
                await measure(reference, "read_text_file", ref_args, calls, check_ok),
            )
            ratio = ours_p50 / ref_p50
            print(f"ratio ours/reference (p50): {ratio:.2f}  (goal <= {GOAL_RATIO})")
        print(f"goal p50 <= {GOAL_P50_MS} ms: {'met' if ours_p50 <= GOAL_P50_MS else 'NOT met'}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--no-reference", action="store_true", help="skip the Node reference server")
    args = parser.parse_args()
    return anyio.run(run, args.calls, not args.no_reference)


if __name__ == "__main__":
    raise SystemExit(main())
