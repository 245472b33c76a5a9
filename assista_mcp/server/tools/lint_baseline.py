"""MCP tool: record a lint baseline (the write side of ``check --baseline FILE --update-baseline``).

The lint tools only read a baseline; recording one writes a file, so it is its own tool with the
edit effect (asked for like any write).
"""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from pydantic import BaseModel, Field

from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools._base import ToolSpec, one_or_many
from assista_mcp.server.tools._text import answer
from assista_mcp.server.tools.lint import ModuleArg, ModulesArg, _load, _select
from odoo_tools.lint import AdoptionOptions, LintCache, Summary, adopt, lint_addons, summarize


class BaselineSaved(BaseModel):
    """What was recorded as known."""

    baseline: str = Field(description="The baseline file written (as given)")
    modules: list[str] = Field(description="Modules whose findings were recorded")
    recorded: int = Field(description="Findings recorded as known")
    summary: Summary = Field(description="Severity counts of the recorded findings")
    seconds: float

    def render(self) -> str:
        s = self.summary
        return (
            f"baseline {self.baseline} written: {self.recorded} known finding(s) of "
            f"{len(self.modules)} module(s) ({s.errors} error(s), {s.warnings} warning(s), "
            f"{s.infos} info(s)); "
            f"lint_module/check_module with baseline={self.baseline!r} now return only new ones.\n"
        )


async def save_lint_baseline(
    ctx: Ctx,
    baseline: Annotated[
        str,
        Field(
            description="The baseline file to write, relative to an addons root "
            "(e.g. '.assista-baseline.json')."
        ),
    ],
    module: ModuleArg = None,
    modules: ModulesArg = None,
) -> BaselineSaved:
    """Record today's findings (every check) as known, in a baseline file: later calls of
    lint_module / check_module with baseline=..., and `assista-odoo check --baseline FILE`, report
    only findings not in it. Without module(s), every module of the project is recorded (as CI does;
    a baseline of a few modules makes the others' findings new). Overwrites the file.
    """
    context = app(ctx)
    path = context.workspace.resolve(baseline, purpose="write", must_exist=False).path
    project = await anyio.to_thread.run_sync(_load, context)
    if module is None and modules is None:
        addons = project.checkable()
    else:
        chosen = one_or_many(module, modules, "module")
        addons = await anyio.to_thread.run_sync(_select, context, project, chosen)
    run = await lint_addons(
        project, addons, None, cache=LintCache(context.settings.cache_dir), digests=context.lint_digests
    )
    options = AdoptionOptions(baseline=path, update_baseline=True)
    await anyio.to_thread.run_sync(adopt, project, run.findings, options)
    result = BaselineSaved(
        baseline=baseline,
        modules=run.modules,
        recorded=len(run.findings),
        summary=summarize(run.findings),
        seconds=round(run.seconds, 3),
    )
    return answer(result, result.render())


TOOLS = (ToolSpec(save_lint_baseline, "Record a lint baseline", effects.RECORDS_BASELINE),)

__all__ = ["TOOLS", "BaselineSaved"]
