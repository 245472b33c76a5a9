"""Migrate modules: plan, run each series step in memory, then (on request) write and commit.
A dry run reads the modules and changes nothing on disk."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.migrate._step import migrate_step
from odoo_tools.migrate.engine.commit import commit_step, ready_to_commit
from odoo_tools.migrate.engine.models import MigrationReport, ModuleMigration, StepOutcome
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.plan import PlannedModule, plan_migration
from odoo_tools.migrate.engine.report import SOURCE
from odoo_tools.migrate.engine.step_knowledge import step_knowledge
from odoo_tools.migrate.passes.protocol import Known
from odoo_tools.migrate.passes.table import unchecked
from odoo_tools.series import Series


def migrate(
    paths: Sequence[Path],
    to_series: str,
    *,
    from_series: str | None = None,
    write: bool = False,
    commit: bool = False,
    odoo_sources: Mapping[Series, Path] | None = None,
) -> MigrationReport:
    """Every module under ``paths`` moved to ``to_series``; ``odoo_sources`` maps a series to its
    Odoo source, whose ``upgrade_code`` scripts then run first on the steps into that series (and
    whose core views are compared with the previous series' to retarget gone anchors)."""
    if stray := [key for key in odoo_sources or {} if not isinstance(key, Series)]:
        # a bare major (the old face) would match no step and silently read no source
        raise TypeError(f"odoo_sources is keyed by Series (Series(18) for 18.0), not {stray[0]!r}")
    plan = plan_migration(paths, to_series, from_series)
    if commit:
        for planned in plan:
            ready_to_commit(planned.folder)  # refused before anything is written
    sources = dict(odoo_sources or {})
    modules = [_guarded(p, write=write or commit, commit=commit, odoo_sources=sources) for p in plan]
    return MigrationReport(
        to_series=str(plan[0].target) if plan else to_series, written=write or commit, modules=modules
    )


def _guarded(
    planned: PlannedModule, *, write: bool, commit: bool, odoo_sources: Mapping[Series, Path]
) -> ModuleMigration:
    """``migrate_module``, except that a module whose input a pass cannot take (recursion, memory:
    nesting we did not foresee in one of its files) is a finding, and the other modules go on.
    Nothing of it is written: the steps write only after they all ran (with --commit, the steps
    already committed stay, each one whole)."""
    try:
        return migrate_module(planned, write=write, commit=commit, odoo_sources=odoo_sources)
    except (RecursionError, MemoryError) as exc:
        finding = Finding(
            source=SOURCE,
            code="migration-gave-up",
            severity="error",
            module=planned.name,
            path=f"{planned.name}/__manifest__.py",
            message=f"{planned.name} was not migrated: a pass ran out of "
            f"{'recursion depth' if isinstance(exc, RecursionError) else 'memory'} on one of its files.",
            hint="Find the deeply nested expression or data in the module, simplify it, then migrate again.",
        )
        step = StepOutcome(
            source=f"{planned.source}", target=f"{planned.target}", rules_applied={}, findings=[finding]
        )
        return ModuleMigration(
            module=planned.name,
            path=str(planned.folder),
            from_series=f"{planned.source}",
            to_series=f"{planned.target}",
            depends=list(planned.depends),
            steps=[step],
            written=False,
        )


def migrate_module(
    planned: PlannedModule,
    *,
    write: bool = False,
    commit: bool = False,
    odoo_sources: Mapping[Series, Path] | None = None,
) -> ModuleMigration:
    files = ModuleFiles.read(planned.folder)
    outcomes: list[StepOutcome] = []
    for source, target in planned.steps:
        before, deleted_before = dict(files.texts), set(files.deleted)
        sources = odoo_sources or {}
        old_source, new_source = sources.get(source), sources.get(target)
        report = migrate_step(files, source, target, new_source, old_source)
        sha = ""
        if commit:
            changes = files.changes(before, deleted_before)
            files.write(changes)
            written = [c.path for c in changes if c.after is not None]
            sha = commit_step(
                files.folder,
                files.name,
                report.target_series,
                written,
                [c.path for c in changes if c.after is None],
            )
        outcomes.append(
            StepOutcome(
                source=str(source),
                target=str(target),
                rules_applied=dict(report.applied),
                findings=report.findings,
                commit=sha,
                unchecked=unchecked(
                    source,
                    target,
                    Known(old_source, new_source, step_knowledge(source, target, old_source, new_source)),
                ),
            )
        )
    if outcomes and planned.left_behind:
        outcomes[0].findings.insert(0, _left_behind_finding(planned))
    if outcomes:
        outcomes[0].findings[:0] = [_too_deep_finding(files, rel, why) for rel, why in files.too_deep.items()]
    changes = files.changes()
    if write and not commit:
        files.write(changes)
    return ModuleMigration(
        module=planned.name,
        path=str(planned.folder),
        from_series=f"{planned.source}",
        to_series=f"{planned.target}",
        depends=list(planned.depends),
        steps=outcomes,
        changed=[c.path for c in changes if c.after is not None],
        deleted=[c.path for c in changes if c.after is None],
        written=write or commit,
        diff=files.diff(changes),
    )


def _left_behind_finding(planned: PlannedModule) -> Finding:
    names = ", ".join(f"{name} ({series})" for name, series in planned.left_behind)
    return Finding(
        source=SOURCE,
        code="dependency-not-migrated",
        severity="warning",
        module=planned.name,
        path=f"{planned.name}/__manifest__.py",
        message=(
            f"{planned.name} depends on {names}, beside it and not migrated in this run: Odoo "
            f"{planned.target} installs neither until it is"
        ),
        hint="Migrate them in one run (both folders, or the folder holding them): dependencies go first.",
    )


def _too_deep_finding(files: ModuleFiles, rel: str, why: str) -> Finding:
    uncompilable = why.startswith("Python cannot")
    return Finding(
        source=SOURCE,
        code="python-syntax" if uncompilable else "too-deep-to-migrate",
        severity="error" if uncompilable else "warning",
        module=files.name,
        path=files.site_path(rel),
        message=f"not migrated: {why}; the file was left as it is.",
        hint="Split the expression (a list and sum(), a loop), then migrate again.",
    )
