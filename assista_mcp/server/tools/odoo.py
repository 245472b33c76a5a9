"""MCP tools: run a real Odoo (install, upgrade, test) and check the setup (thin adapters over
``odoo_tools.runs._validate`` and ``odoo_tools.runs._doctor``).

The tools are async: progress notifications flow while odoo-bin runs, and an MCP cancel
cancels the call, which kills odoo-bin's process group and drops the database it used.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from pydantic import Field

from assista_mcp.config.odoo_config import runner_config
from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools._base import ToolSpec, one_or_many
from odoo_tools.errors import NotFound
from odoo_tools.runs import Action, DoctorReport, ValidationResult, check_modules, run_doctor

LOG_URI = "odoo://run-log/{name}"
LOG_TAIL_CHARS = 200_000

ModuleArg = Annotated[
    str | None, Field(description="One module's technical name (its folder name), e.g. 'library_loan'.")
]
ModulesArg = Annotated[
    list[str] | str | None,
    Field(description="Several modules' technical names, e.g. ['a', 'b'], instead of module."),
]
DemoArg = Annotated[bool, Field(description="Load demo data (default: no demo data, like production).")]
KeepDbArg = Annotated[
    bool, Field(description="Keep the database afterwards for inspection (its name is in the answer).")
]
CacheArg = Annotated[
    bool,
    Field(
        description="Clone a cached database that already holds the dependencies (fast, default). "
        "False starts from an empty database (slow; for a from-scratch proof)."
    ),
]


async def _validate(
    action: Action, names: list[str], demo: bool, keep_db: bool, use_cache: bool, ctx: Ctx
) -> ValidationResult:
    # An unknown name is bad input, said before any Odoo starts (odoo-bin only logs it, seconds later).
    unknown = await anyio.to_thread.run_sync(app(ctx).index.unknown_modules, check_modules(names, action))
    if unknown:
        raise NotFound(
            f"Unknown module(s): {', '.join(unknown)}: neither in the addons roots nor Odoo's core.",
            "list_modules shows the modules of the addons roots (names are folder names).",
        )
    sender, receiver = anyio.create_memory_object_stream[str](math.inf)

    async def forward() -> None:
        step = 0
        async with receiver:
            async for message in receiver:
                step += 1  # MCP progress must grow; k/N of each Odoo phase is in the message
                await ctx.report_progress(step, None, message)

    failure: Exception | None = None
    async with anyio.create_task_group() as group:
        group.start_soon(forward)
        with sender:
            try:
                result = await app(ctx).runner.validate(
                    action,
                    names,
                    demo=demo,
                    keep_db=keep_db,
                    use_cache=use_cache,
                    on_progress=lambda k, n, message: sender.send_nowait(message),
                )
            except Exception as exc:  # raised below, outside the group, so not wrapped
                failure = exc
    if failure is not None:
        raise failure
    if result.log_path:
        result.log_resource = LOG_URI.format(name=Path(result.log_path).name)
    return result


async def install_module(
    ctx: Ctx,
    module: ModuleArg = None,
    modules: ModulesArg = None,
    demo: DemoArg = False,
    keep_db: KeepDbArg = False,
    use_cache: CacheArg = True,
) -> ValidationResult:
    """Install module(s) into a fresh disposable database with a real Odoo and report what broke.

    Use after editing a module (after the static checks pass) to prove it really installs:
    views validate against models, data files load, access rules apply. The answer gives each
    module's state from the database, findings at file:line with a kind and a fix hint, and
    the raw log (log_resource). Dependencies come from a cached template, so this takes
    seconds after the first run.
    """
    chosen = one_or_many(module, modules, "module")
    return await _validate("install", chosen, demo, keep_db, use_cache, ctx)


async def upgrade_module(
    ctx: Ctx,
    module: ModuleArg = None,
    modules: ModulesArg = None,
    demo: DemoArg = False,
    keep_db: KeepDbArg = False,
    use_cache: CacheArg = True,
) -> ValidationResult:
    """Install module(s), then upgrade them (odoo-bin -u) in a disposable database.

    Use to prove an update runs cleanly: data files reload over existing records, migrations
    and noupdate data behave. An upgrade that Odoo skipped is reported as a failure.
    """
    chosen = one_or_many(module, modules, "module")
    return await _validate("upgrade", chosen, demo, keep_db, use_cache, ctx)


async def test_module(
    ctx: Ctx,
    module: ModuleArg = None,
    modules: ModulesArg = None,
    demo: DemoArg = False,
    keep_db: KeepDbArg = False,
    use_cache: CacheArg = True,
) -> ValidationResult:
    """Install module(s) and run their Odoo tests only (--test-tags /<module>).

    Returns one result per test (Class.method, pass/fail/error, message, file:line) plus the
    install findings. Failing tests do not undo the install: read both parts.
    """
    chosen = one_or_many(module, modules, "module")
    return await _validate("test", chosen, demo, keep_db, use_cache, ctx)


async def odoo_doctor(
    ctx: Ctx,
    modules: Annotated[
        list[str] | None,
        Field(description="Check these modules' external Python dependencies (default: all)."),
    ] = None,
) -> DoctorReport:
    """Check that Odoo runs can work: PostgreSQL reachable and allowed to create databases,
    odoo-bin found and its version, addons paths valid, external Python dependencies
    importable in Odoo's interpreter. Each failed check comes with a one-line fix."""
    return await run_doctor(runner_config(app(ctx).settings), modules or ())


TOOLS = (
    ToolSpec(install_module, "Install modules in Odoo", effects.RUN_CODE),
    ToolSpec(upgrade_module, "Upgrade modules in Odoo", effects.RUN_CODE),
    ToolSpec(test_module, "Run module tests in Odoo", effects.RUN_CODE),
    ToolSpec(odoo_doctor, "Check the Odoo setup", effects.READ),
)


def register_resources(server: MCPServer) -> None:
    """Add the run-log resource."""

    @server.resource(
        LOG_URI,
        name="run-log",
        title="Odoo run log",
        description="The raw odoo-bin output of one install/upgrade/test run (its last 200 kB).",
        mime_type="text/plain",
    )
    def run_log(name: str, ctx: Ctx) -> str:
        return read_run_log(app(ctx).runner.log_dir, name)


def read_run_log(log_dir: Path, name: str) -> str:
    """One of our run logs, by file name only (no paths: nothing else is reachable)."""
    path = log_dir / name
    if os.sep in name or name.startswith(".") or not name.endswith(".log") or not path.is_file():
        raise ResourceError(f"No run log named {name!r}. Use the log_resource of a validation result.")
    text = path.read_text(encoding="utf-8", errors="replace")
    return text[-LOG_TAIL_CHARS:]
