"""How long the MCP ``check_module`` tool takes on a real module, cold, warm and after an XML edit.

Run: .venv/bin/python benchmarks/check_module_timing.py --module-dir /work/corpus/18.0/crm_phonecall
     [--series 18.0] [--runs 5]

The module (with every sibling module of its folder its manifest depends on) is copied to a
temporary addons folder; an in-memory MCP client (the SDK's ``Client``) calls our server's
``check_module`` there: once cold (empty cache, the baseline of this process), ``--runs`` times
warm (nothing changed), then after a one-line edit of one of its XML files (an ``invisible=``
naming a field the model lacks, when the module has one). Prints each figure in seconds, the ratio
warm/cold, whether the warm findings are the cold ones and whether the edit's error is found.
Goal (issue 31): warm under one second with the same findings.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from assista_mcp.config.loading import load_settings
from assista_mcp.server.mcp_server import build_server

GOAL_WARM_S = 1.0
_MODIFIER = re.compile(r'\binvisible="([a-z_]\w*)"')


def _copy(module_dir: Path, target: Path) -> None:
    """The module and the modules of its folder it depends on (transitively)."""
    todo, seen = [module_dir.name], set()
    while todo:
        name = todo.pop()
        source = module_dir.parent / name
        if name in seen or not (source / "__manifest__.py").is_file():
            continue
        seen.add(name)
        shutil.copytree(source, target / name)
        manifest = ast.literal_eval((source / "__manifest__.py").read_text(encoding="utf-8"))
        todo.extend(manifest.get("depends", []))


def _edit(module: Path) -> str | None:
    """Break one ``invisible="name"`` in an XML file of the module; its 'file:line', or None."""
    for path in sorted(module.rglob("*.xml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for number, text in enumerate(lines, start=1):
            if (match := _MODIFIER.search(text)) is not None:
                start, end = match.span(1)
                lines[number - 1] = text[:start] + match.group(1) + "_zz" + text[end:]
                path.write_text("\n".join(lines), encoding="utf-8")
                return f"{path.relative_to(module.parent).as_posix()}:{number}"
    return None


def _findings(result: Any) -> list[tuple[str, str, int | None, str]]:
    data = result.structured_content or {}
    found = data.get("findings", [])
    return sorted((f["code"], f["path"], f.get("line"), f["severity"]) for f in found)


async def _measure(addons: Path, module: str, runs: int, series: str) -> int:
    server = build_server(load_settings({"addons_paths": [addons], "odoo_series": series}))
    async with Client(server) as client:

        async def call() -> tuple[float, list[tuple[str, str, int | None, str]]]:
            started = time.perf_counter()
            result = await client.call_tool("check_module", {"module": module})
            return time.perf_counter() - started, _findings(result)

        cold, cold_found = await call()
        warm = []
        same = True
        for _ in range(runs):
            seconds, found = await call()
            warm.append(seconds)
            same = same and found == cold_found
        edited = _edit(addons / module)
        after_edit, edit_found = await call()
    median = statistics.median(warm)
    print(f"cold (baseline, empty cache): {cold:.2f} s, {len(cold_found)} findings")
    print(f"warm x{runs}: median {median:.3f} s, max {max(warm):.3f} s; ratio warm/cold {median / cold:.3f}")
    print(f"warm findings identical to cold: {same}")
    if edited is not None:
        caught = any(f"{p}:{line}" == edited and s == "error" for _c, p, line, s in edit_found)
        print(f"after editing {edited}: {after_edit:.2f} s, the edit's error found: {caught}")
    goal = median <= GOAL_WARM_S and same
    print(f"goal (warm <= {GOAL_WARM_S:.0f} s, same findings): {'met' if goal else 'NOT met'}")
    return 0 if goal else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--module-dir", required=True, type=Path)
    parser.add_argument("--series", default="18.0")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    if not (args.module_dir / "__manifest__.py").is_file():
        print(f"{args.module_dir} is not a module folder (no __manifest__.py)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="check-module-timing-") as tmp:
        addons = Path(tmp) / "addons"
        addons.mkdir()
        _copy(args.module_dir.resolve(), addons)
        os.environ["ASSISTA_CACHE_DIR"] = str(Path(tmp) / "cache")
        return anyio.run(_measure, addons, args.module_dir.name, args.runs, args.series)


if __name__ == "__main__":
    raise SystemExit(main())
