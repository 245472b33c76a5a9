"""MCP tool: move modules to a newer Odoo series (a thin adapter over ``odoo_tools.migrate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import anyio.to_thread
from pydantic import Field

from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools._base import ToolSpec, one_or_many
from odoo_tools.errors import SandboxViolation
from odoo_tools.migrate import MigrationReport

ModuleArg = Annotated[
    str | None, Field(description="One module's technical name (its folder name), e.g. 'library_loan'.")
]
ModulesArg = Annotated[
    list[str] | str | None,
    Field(description="Several modules, e.g. ['a', 'b'], migrated in dependency order, instead of module."),
]


async def migrate_module(
    ctx: Ctx,
    to_series: Annotated[str, Field(description="The series to move to, e.g. '18.0'.")],
    module: ModuleArg = None,
    modules: ModulesArg = None,
    write: Annotated[
        bool, Field(description="Apply the changes (default: a dry run, only the diff).")
    ] = False,
    from_series: Annotated[
        str | None,
        Field(description="The modules' series when their manifest's version does not say it, e.g. '17.0'."),
    ] = None,
) -> MigrationReport:
    """Migrate module(s) from the series their manifest says to to_series, one series at a time.

    Rewrites what is mechanical and keeps the code as written (comments, quotes, layout): the Odoo
    source's own upgrade_code scripts, then rules per step (16->17 attrs/states to expressions,
    17->18 tree->list, <chatter/>, user_has_groups, storable products..., 18->19 models.Constraint),
    declares in the module the core fields the step removed that it still uses (a warning at each
    use: decide whether it still needs them), bumps the version to N.0.1.0.0 and removes old
    migrations/ scripts; removed core models and framework imports are findings. Returns per module the
    diff, how often each rule applied, and findings at file:line for what it could not rewrite
    safely. With the old series' Odoo source configured (from_odoo_path), gone anchors of inherited
    core views are retargeted and changed core method signatures followed. Then prove it:
    test_module(module, demo=true) on the target series' Odoo, and fix what remains (edit_file,
    check_module, test_module again). It runs no module code, but it runs the configured Odoo
    source's own upgrade_code scripts (refused when an addons root it may write holds them).
    """
    context = app(ctx)
    names = one_or_many(module, modules, "module")
    folders = [context.workspace.resolve(name, purpose="write" if write else "read").path for name in names]
    sources = context.settings.migration_sources()
    for source in sources.values():
        _refuse_writable_scripts(source, context.workspace.writable_roots)

    def run() -> MigrationReport:
        from odoo_tools.migrate import migrate  # the rule tables and libcst load on the first call

        return migrate(
            [Path(f) for f in folders], to_series, from_series=from_series, write=write, odoo_sources=sources
        )

    return await anyio.to_thread.run_sync(run)


def _refuse_writable_scripts(source: Path, writable: tuple[Path, ...]) -> None:
    """The Odoo source's ``odoo/upgrade_code/*.py`` run inside this server: one the write tools
    can reach (the source, its scripts folder or a script linked into a writable addons root)
    could be written by a model first, then run here. Refused before anything is read."""
    folder = source / "odoo" / "upgrade_code"
    scripts = [folder, *sorted(folder.glob("*.py"))] if folder.is_dir() else [folder]
    for path in scripts:
        real = path.resolve()
        root = next((r for r in writable if real.is_relative_to(r.resolve())), None)
        if root is not None:
            raise SandboxViolation(
                f"The Odoo source {source} has its upgrade_code scripts inside the writable addons "
                f"root {root} ({real}): migrate_module runs them, so it does not while the tools "
                "can write them.",
                hint="Keep the Odoo source outside the addons roots (odoo_path, odoo_bin), or migrate "
                "with the CLI: assista-odoo migrate.",
            )


TOOLS = (ToolSpec(migrate_module, "Migrate modules to a newer Odoo series", effects.MIGRATES),)
