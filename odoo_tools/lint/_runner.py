"""Run the selected checks over addons: cached by content, batched per linter, in parallel.

Each linter gets the addons whose cached answer is missing, split into at most ``jobs`` batches
(one process per batch, all of a batch's files in one invocation); batches of every linter run
concurrently under one bound of ``jobs`` processes. Static checks run in a worker thread.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from odoo_tools.addons import Addon
from odoo_tools.errors import InvalidInput
from odoo_tools.files import compile_linear
from odoo_tools.findings import Finding, sort_findings
from odoo_tools.lint._cache import LintCache, tool_versions
from odoo_tools.lint._common import TOOL_MISSING, ByModule, failure_for_all
from odoo_tools.lint._configs import LintConfig
from odoo_tools.lint._dedupe import drop_duplicates
from odoo_tools.lint._flake8 import run_flake8
from odoo_tools.lint._grading import hooks_ci_release, regrade
from odoo_tools.lint._inputs import set_aside_for, unfit_inputs
from odoo_tools.lint._keys import Keys
from odoo_tools.lint._oca_hooks import run_oca_hooks
from odoo_tools.lint._pinned import TOOLS_DIR as PINNED_TOOLS_DIR
from odoo_tools.lint._project import LintProject
from odoo_tools.lint._pylint import run_pylint
from odoo_tools.lint._spares import discard_spares
from odoo_tools.storage import FileDigests

CHECKS = ("pylint", "flake8", "oca-hooks", "static")
Progress = Callable[[str, int], None]  # (what finished, how many modules it covered)
Linter = Callable[[Sequence[Addon], LintConfig, str | None], Awaitable[ByModule]]

LINTERS: dict[str, Linter] = {
    "pylint": run_pylint,
    "flake8": lambda addons, config, series: run_flake8(addons, config),
    "oca-hooks": lambda addons, config, series: run_oca_hooks(addons, config),
}


@dataclass
class LintRun:
    """The outcome of one run: every finding, and which answers came from the cache."""

    modules: list[str]
    checks: tuple[str, ...]
    series: str | None
    findings: list[Finding] = field(default_factory=list)
    cached: dict[str, list[str]] = field(default_factory=dict)  # check -> modules from cache
    checked: dict[str, list[str]] = field(default_factory=dict)  # check -> modules run now
    seconds: float = 0.0
    missing_tools: list[str] = field(default_factory=list)  # one line per linter that could not run


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def validate_checks(checks: Sequence[str] | None) -> tuple[str, ...]:
    if not checks:
        return CHECKS
    unknown = sorted(set(checks) - set(CHECKS))
    if unknown:
        raise InvalidInput(f"Unknown check(s): {', '.join(unknown)}.", f"Choose among: {', '.join(CHECKS)}.")
    return tuple(c for c in CHECKS if c in checks)


async def lint_addons(
    project: LintProject,
    addons: Sequence[Addon],
    checks: Sequence[str] | None = None,
    *,
    cache: LintCache,
    digests: FileDigests,
    jobs: int | None = None,
    on_progress: Progress | None = None,
) -> LintRun:
    started = time.monotonic()
    selected = validate_checks(checks)
    jobs = max(1, jobs or default_jobs())
    run = LintRun(modules=[a.name for a in addons], checks=selected, series=project.series_for(addons))
    if cache.directory is not None:  # the pinned linters a repository asks for live beside the cache
        PINNED_TOOLS_DIR.set(cache.directory.parent / "tools")
    keys_of = Keys(project, digests, tool_versions())
    results: dict[str, ByModule] = {}
    keys: dict[tuple[str, str], str] = {}
    pending: dict[str, list[Addon]] = {}
    for check in selected:
        results[check] = {}
        for addon in addons:
            key = keys_of.key(check, addon)
            keys[(check, addon.name)] = key
            hit = cache.get(key)
            if hit is None:
                pending.setdefault(check, []).append(addon)
            else:
                results[check][addon.name] = hit
                run.cached.setdefault(check, []).append(addon.name)
    for addon in list(pending.get("static", [])):  # the finer key: see Keys.static_facts_key
        key = keys_of.static_facts_key(addon)
        hit = cache.get(key)
        if hit is not None:
            pending["static"].remove(addon)
            results["static"][addon.name] = hit
            run.cached.setdefault("static", []).append(addon.name)
            cache.put(keys[("static", addon.name)], hit)
        keys[("static-facts", addon.name)] = key
    unfit = _set_aside_unfit(pending, results)
    if on_progress is not None:
        on_progress("cache", sum(len(names) for names in run.cached.values()))
    discard_spares(keep=pending)  # an early linter with nothing to do leaves the CPU to the rest
    limit = asyncio.Semaphore(jobs)
    tasks = [
        _bounded(limit, check, batch, project, on_progress)
        for check in selected
        if check != "static"
        for batch in _batches(pending.get(check, []), project, jobs)
    ]
    if pending.get("static"):
        tasks.append(_static(pending["static"], project, on_progress))
    try:
        gathered = await asyncio.gather(*tasks)
    finally:
        discard_spares()  # early linter processes no batch needed
    for check, found in gathered:
        for name, findings in found.items():
            results[check][name] = findings
            cache.put(keys[(check, name)], findings)
            if check == "static":
                cache.put(keys[("static-facts", name)], findings)
            run.checked.setdefault(check, []).append(name)
    configs = {a.name: project.config_for(a) for a in addons}
    fresh = {check: set(run.cached.get(check, ())) for check in selected}
    everything = [
        f
        for check in selected
        for name, per in results[check].items()
        for f in regrade(
            excluded(per, project.addon_set.addons[name], configs[name]),
            configs[name].oca_grading,
            project.addon_set.addons[name].path,
            frozenset(source for source, _, _ in configs[name].drift),
            hooks_ci_release(configs[name], project.series_of(project.addon_set.addons[name])),
            configs[name].mandatory_messages or frozenset(),
            # Findings read from the cache are this run's own objects; the static checks' may be
            # the project's (its index's findings), which a server keeps between runs.
            in_place=name in fresh[check],
        )
    ]
    run.findings, run.missing_tools = split_missing_tools(
        sort_findings(drop_duplicates(everything, selected) + unfit)
    )
    run.seconds = time.monotonic() - started
    return run


def _set_aside_unfit(pending: dict[str, list[Addon]], results: dict[str, ByModule]) -> list[Finding]:
    """The findings on the files no linter may be given (``_inputs``): the linters leave them out
    and lint the rest; a module is taken out of a linter's pending list only when that linter
    cannot leave such a file out (its answer is not cached: the next run looks again)."""
    linted = {a.name: a for check, addons in pending.items() if check != "static" for a in addons}
    unfit = {name: found for name, addon in linted.items() if (found := unfit_inputs(addon))}
    skipped: dict[str, list[str]] = {}
    for check, addons in pending.items():
        if check == "static":
            continue
        aside = {a.name for a in addons if a.name in unfit and set_aside_for(check, a, unfit[a.name])}
        pending[check] = [a for a in addons if a.name not in aside]
        results[check].update({name: [] for name in aside})
        for name in aside:
            skipped.setdefault(name, []).append(check)
    findings = []
    for name, found in unfit.items():
        checks = skipped.get(name)
        for finding in found:
            if checks:  # say what did not run on the module at all
                finding = finding.model_copy(
                    update={"message": f"{finding.message[:-1]}; {', '.join(checks)} did not run on {name}."}
                )
            findings.append(finding)
    return findings


def excluded(findings: list[Finding], addon: Addon, config: LintConfig) -> list[Finding]:
    """Findings minus those on files the repository's pre-commit ``exclude`` leaves out."""
    if config.exclude is None or config.top is None:
        return findings
    pattern = compile_linear(config.exclude)  # checked by _precommit: RE2 takes it
    kept = []
    for finding in findings:
        try:
            rel = (addon.root / finding.path).relative_to(config.top).as_posix()
        except ValueError:
            rel = finding.path
        if not finding.path or not pattern.search(rel.encode("utf-8", "surrogateescape")):
            kept.append(finding)
    return kept


def lint_addons_sync(*args: object, **kwargs: object) -> LintRun:
    """Blocking form (threads, the CI gate). The run comes back in a box, not as the result of
    the task ``asyncio.run`` drives: on leaving, Python 3.11's runner asks ``signal.getsignal``
    for its SIGINT handler, a partial holding that task, and the enum lookup that fails on it
    formats the task's repr, its result's included, twice. On 30 Odoo addons (16,845 findings)
    that was 0.3 s of a 1.4 s warm check."""
    box: list[LintRun] = []

    async def run_into_box() -> None:
        box.append(await lint_addons(*args, **kwargs))  # type: ignore[arg-type]

    asyncio.run(run_into_box())
    return box[0]


def _batches(addons: list[Addon], project: LintProject, jobs: int) -> list[list[Addon]]:
    """At most ``jobs`` batches per configuration and series (a linter is told one series: the
    manifest version pylint-odoo accepts), balanced by file count (largest first)."""
    by_root: dict[tuple[str, str | None], list[Addon]] = {}
    for addon in addons:
        by_root.setdefault((str(addon.root), project.series_of(addon)), []).append(addon)
    batches: list[list[Addon]] = []
    for group in by_root.values():
        count = min(jobs, len(group))
        buckets: list[list[Addon]] = [[] for _ in range(count)]
        weights = [0] * count
        for addon in sorted(group, key=_weight, reverse=True):
            lightest = weights.index(min(weights))
            buckets[lightest].append(addon)
            weights[lightest] += _weight(addon)
        batches.extend(sorted(bucket, key=lambda a: a.name) for bucket in buckets)
    return batches


def _weight(addon: Addon) -> int:
    return sum(len(files) for _, _, files in os.walk(addon.path)) + 1


async def _bounded(
    limit: asyncio.Semaphore,
    check: str,
    batch: list[Addon],
    project: LintProject,
    on_progress: Progress | None,
) -> tuple[str, ByModule]:
    async with limit:
        try:
            found = await LINTERS[check](batch, project.config_for(batch[0]), project.series_of(batch[0]))
        except Exception as exc:  # a linter we could not even run is a finding, never a traceback
            found = failure_for_all(
                batch,
                check,
                "linter-crashed",
                f"{check} could not be run: {type(exc).__name__}: {exc}",
                "Run the check again; if it persists, report it with this message.",
            )
    if on_progress is not None:
        on_progress(check, len(batch))
    return check, found


async def _static(
    addons: list[Addon], project: LintProject, on_progress: Progress | None
) -> tuple[str, ByModule]:
    from odoo_tools.lint._static import static_findings  # the code index: imported when needed

    found = await asyncio.to_thread(lambda: {a.name: static_findings(project, a) for a in addons})
    if on_progress is not None:
        on_progress("static", len(addons))
    return "static", found


def split_missing_tools(findings: list[Finding]) -> tuple[list[Finding], list[str]]:
    """The findings minus ``tool-missing`` ones, and one line per missing linter for the run:
    the environment lacks a tool, no module is broken."""
    kept = [f for f in findings if f.code != TOOL_MISSING]
    lines = [f"{f.message} {f.hint}".strip() for f in findings if f.code == TOOL_MISSING]
    return kept, list(dict.fromkeys(lines))
