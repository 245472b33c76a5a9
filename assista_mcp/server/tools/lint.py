"""MCP tools: lint and static checks (thin adapters over ``odoo_tools.lint``).

Answers are cached by content, so calling them after every edit is cheap: only the modules
whose files changed are checked again.
"""

from __future__ import annotations

import os
from typing import Annotated, Literal

import anyio.to_thread
from pydantic import BaseModel, Field

from assista_mcp.safety import effects
from assista_mcp.server.context import AppContext, Ctx, app
from assista_mcp.server.tools._base import ToolSpec, one_or_many
from assista_mcp.server.tools._text import answer, finding_text
from odoo_tools.addons import Addon
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.findings import SEVERITY_RANK, Finding, Severity
from odoo_tools.lint import (
    AdoptionOptions,
    LintCache,
    LintProject,
    LintRun,
    Summary,
    adopt,
    lint_addons,
    lint_project,
    summarize,
)

CheckName = Literal["pylint", "flake8", "oca-hooks", "static"]
DEFAULT_LIMIT = 200


class LintResult(BaseModel):
    """Findings for the checked modules, worst first within each file."""

    modules: list[str] = Field(description="Modules that were checked")
    checks: list[str] = Field(description="Checks that ran")
    series: str | None = Field(description="Odoo series the checks assumed")
    passed: bool = Field(description="True when no finding has severity error and every check ran")
    summary: Summary
    findings: list[Finding]
    from_cache: list[str] = Field(description="'check:module' pairs answered from the cache (unchanged)")
    seconds: float
    note: str = Field(
        default="", description="Set when findings were left out (limit, min_severity, baseline, new_only)"
    )
    incomplete: list[str] = Field(
        default_factory=list,
        description="Checks that could not run (a linter is not installed), each with how to install it",
    )

    def render(self) -> str:
        """A verdict line, then one line per finding (``path:line: severity [check code] message``)."""
        s = self.summary
        verdict = "passed" if self.passed else "FAILED" if s.errors else "INCOMPLETE"
        counts = f"{s.errors} error(s), {s.warnings} warning(s), {s.infos} info(s)"
        lines = [
            f"{', '.join(self.modules) or 'no module'}: {verdict}: {counts}; "
            f"series {self.series or 'unknown'}; checks: {', '.join(self.checks)}"
        ]
        lines += [f"Incomplete: {line}" for line in self.incomplete]
        lines += [finding_text(finding) for finding in self.findings]
        if self.note:
            lines.append(f"Note: {self.note}")
        return "\n".join(lines) + "\n"


ModuleArg = Annotated[
    str | None, Field(description="One module name (its folder name, e.g. 'my_module') or a path inside it.")
]
ModulesArg = Annotated[
    list[str] | str | None,
    Field(description="Several module names or paths inside modules, instead of module."),
]

BaselineArg = Annotated[
    str | None,
    Field(
        description="A baseline file of known findings (recorded by save_lint_baseline or "
        "`assista-odoo check --baseline FILE`), relative to an addons root: only findings not in it "
        "are returned (and decide passed); the note says how many known ones were hidden."
    ),
]
NewOnlyArg = Annotated[
    bool,
    Field(description="Only findings on lines changed since the git base (as a review bot annotates a PR)."),
]
BaseArg = Annotated[
    str | None,
    Field(description="Git base for new_only: a branch, tag or commit (default: origin/HEAD, main, master)."),
]


async def _run(
    ctx: AppContext,
    modules: list[str],
    checks: list[str] | None,
    min_severity: Severity,
    limit: int,
    adoption: tuple[str | None, bool, str | None] = (None, False, None),
) -> LintResult:
    project = await anyio.to_thread.run_sync(_load, ctx)
    addons = await anyio.to_thread.run_sync(_select, ctx, project, modules)
    options = _adoption_options(ctx, addons, *adoption)
    run = await lint_addons(
        project, addons, checks, cache=LintCache(ctx.settings.cache_dir), digests=ctx.lint_digests
    )
    adopted = await anyio.to_thread.run_sync(adopt, project, run.findings, options)
    run.findings = adopted.findings
    result = _result(run, run.series, min_severity, limit, adopted.notes)
    return answer(result, result.render())


def _adoption_options(
    ctx: AppContext, addons: list[Addon], baseline: str | None, new_only: bool, base: str | None
) -> AdoptionOptions:
    """The same adoption as ``check --baseline FILE --new-only --base REF``; the baseline stays
    inside the sandbox and is only read here (save_lint_baseline or ``check`` record it)."""
    if base is not None and not new_only:
        raise InvalidInput("base is only used with new_only.", "Pass new_only=true with base, or drop base.")
    path = None
    if baseline is not None:
        try:
            path = ctx.workspace.resolve(baseline, purpose="read").path
        except NotFound:
            raise NotFound(
                f"The baseline {baseline!r} does not exist.",
                "Record it once with save_lint_baseline or `assista-odoo check --baseline FILE` (paths "
                "are relative to an addons root), or call without baseline.",
            ) from None
    roots = tuple(dict.fromkeys(addon.root for addon in addons))
    return AdoptionOptions(
        baseline=path, write_missing=False, new_only=new_only, base=base, repositories=roots
    )


async def lint_module(
    ctx: Ctx,
    module: ModuleArg = None,
    modules: ModulesArg = None,
    checks: Annotated[
        list[CheckName] | None,
        Field(
            description="Which checks; default all: pylint (pylint-odoo), flake8, oca-hooks "
            "(XML/CSV/PO), static (cross-file: manifest files, ACLs, xml ids, dependencies, field and "
            "model names as the ORM resolves them)."
        ),
    ] = None,
    min_severity: Annotated[
        Severity, Field(description="Leave out findings below this severity ('info' keeps all).")
    ] = "info",
    limit: Annotated[
        int, Field(description="At most this many findings are returned.", ge=1)
    ] = DEFAULT_LIMIT,
    baseline: BaselineArg = None,
    new_only: NewOnlyArg = False,
    base: BaseArg = None,
) -> LintResult:
    """Lint one or many Odoo modules the way OCA's CI does and return findings as data.

    Use it after editing Python, XML, CSV or the manifest. Each finding has file:line, a
    severity ('error' fails CI, 'warning' informs) and a hint saying how to fix it. Fix the
    errors, then call it again: unchanged modules are answered from the cache instantly.
    On a legacy repository, pass the CI's baseline or new_only to see only what is new.
    """
    chosen = one_or_many(module, modules, "module")
    checks_run: list[str] | None = list(checks) if checks else None
    return await _run(app(ctx), chosen, checks_run, min_severity, limit, (baseline, new_only, base))


async def check_module(
    ctx: Ctx,
    module: Annotated[str, Field(description="Module name (its folder name) or a path inside it.")],
    min_severity: Annotated[
        Severity, Field(description="Leave out findings below this severity ('info' keeps all).")
    ] = "info",
    baseline: BaselineArg = None,
    new_only: NewOnlyArg = False,
    base: BaseArg = None,
) -> LintResult:
    """Run every static check on one module: pylint-odoo, flake8, OCA's XML/CSV/PO checks
    and cross-file checks (data files listed and present, access rules for new models,
    models and xml ids reachable through the dependencies, constructs removed in the
    project's Odoo series) and the ORM's names: every field a view, record, related path or
    @api.depends names, comodels, compute methods and view anchors, resolved across the
    dependencies as Odoo will. No database needed, under a second: call it after each edit and
    before install_module. On a legacy
    repository, pass the CI's baseline or new_only to see only what is new.
    """
    return await _run(app(ctx), [module], None, min_severity, DEFAULT_LIMIT, (baseline, new_only, base))


TOOLS = (
    ToolSpec(lint_module, "Lint modules", effects.READ),
    ToolSpec(check_module, "Check a module", effects.READ),
)


def _load(ctx: AppContext) -> LintProject:
    # the server's one project: its code index is shared, its manifests parsed once between calls
    return lint_project(ctx.project)


def _select(ctx: AppContext, project: LintProject, names: list[str]) -> list[Addon]:
    if not names:
        raise InvalidInput("No module given.", "Pass a module name, e.g. modules=['my_module'].")
    targets = []
    for name in names:
        if "/" not in name and os.sep not in name:
            project.addon_set.get(name)  # NotFound with a hint when there is no such module
            targets.append(name)
        else:  # a path: it must stay inside the sandbox
            targets.append(str(ctx.workspace.resolve(name, purpose="read").path))
    return project.select(targets)


def _result(
    run: LintRun, series: str | None, min_severity: Severity, limit: int, notes: list[str]
) -> LintResult:
    findings = run.findings
    floor = SEVERITY_RANK[min_severity]
    kept = [f for f in findings if SEVERITY_RANK[f.severity] >= floor]
    kept.sort(key=lambda f: (f.module, f.path, -SEVERITY_RANK[f.severity], f.line or 0))
    notes = list(notes)
    if len(kept) < len(findings):
        notes.append(f"{len(findings) - len(kept)} finding(s) below {min_severity} left out")
    if len(kept) > limit:
        notes.append(f"showing {limit} of {len(kept)} findings; raise limit or check fewer modules")
        kept = kept[:limit]
    summary = summarize(findings)
    return LintResult(
        modules=run.modules,
        checks=list(run.checks),
        series=series,
        passed=summary.errors == 0 and not run.missing_tools,
        summary=summary,
        findings=kept,
        from_cache=[f"{check}:{name}" for check, names in run.cached.items() for name in names],
        seconds=round(run.seconds, 3),
        note="; ".join(notes),
        incomplete=run.missing_tools,
    )


__all__ = ["TOOLS", "LintResult"]
