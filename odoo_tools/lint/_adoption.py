"""Adopting the gate on an existing repository, in one place for ``check`` and the MCP tools:
``new_only`` keeps the findings on lines changed since a git base and the static findings the
base did not have (a consequence on an unchanged line), ``baseline`` hides the known ones; each
says in a note what it hid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.findings import Finding
from odoo_tools.lint._baseline import (
    LineReader,
    on_changed_lines,
    read_baseline,
    without_known,
    write_baseline,
)
from odoo_tools.lint._changes import changed_lines
from odoo_tools.lint._new_only import base_static_fingerprints, new_by_fingerprint
from odoo_tools.lint._project import LintProject


@dataclass(frozen=True)
class AdoptionOptions:
    baseline: Path | None = None  # known findings (fingerprints)
    update_baseline: bool = False  # rewrite ``baseline`` with today's findings
    write_missing: bool = True  # a baseline that does not exist yet is written (check's first run)
    new_only: bool = False  # only findings on lines changed since ``base``
    base: str | None = None  # git base for ``new_only`` (None: origin/HEAD, main...)
    repositories: Sequence[Path] = ()  # where to look for the git repositories (``new_only``)


@dataclass
class Adopted:
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)


def adopt(project: LintProject, findings: list[Finding], options: AdoptionOptions) -> Adopted:
    """What is left to report once ``options`` applied, with a note on what was hidden."""
    where = absolute_path(project)
    notes: list[str] = []
    if options.new_only:
        changed: dict[Path, set[int] | None] = {}
        starts = list(dict.fromkeys(options.repositories or (Path.cwd(),)))
        for start in starts:
            changed.update(changed_lines(start, options.base))
        kept = on_changed_lines(findings, changed, where)
        consequences = _new_static(project, findings, starts, options.base, where)
        on_lines = {id(f) for f in kept.findings}
        also = [f for f in consequences if id(f) not in on_lines]
        keep = on_lines | {id(f) for f in also}
        hidden = len(findings) - len(keep)
        notes.append(
            f"new-only: {hidden} finding(s) on lines unchanged since {options.base or 'the base'} hidden"
            + (f"; {len(also)} kept as new consequences of the change (not at the base)" if also else "")
        )
        findings = [f for f in findings if id(f) in keep]
    path = options.baseline
    if path is None:
        return Adopted(findings, notes)
    reader = LineReader(where)
    if options.update_baseline or (options.write_missing and not path.exists()):
        try:
            count = write_baseline(path, findings, reader)
        except OSError as exc:
            raise InvalidInput(
                f"Cannot write the baseline {path}: {exc.strerror or exc}.",
                "Choose a --baseline FILE in a folder you can write.",
            ) from None
        notes.append(
            f"baseline {path} written with {count} known finding(s); later runs fail only on new ones"
        )
        return Adopted([], notes)
    if not path.exists():
        raise NotFound(
            f"The baseline {path} does not exist.",
            "Record it once: assista-odoo check --baseline FILE --update-baseline.",
        )
    kept = without_known(findings, read_baseline(path), reader)
    notes.append(f"baseline {path}: {kept.hidden} known finding(s) hidden")
    return Adopted(kept.findings, notes)


def _new_static(
    project: LintProject,
    findings: list[Finding],
    starts: Sequence[Path],
    base: str | None,
    where: Callable[[Finding], Path],
) -> list[Finding]:
    """Static findings that the base revision did not have (fingerprints, not line numbers)."""
    modules = sorted({f.module for f in findings if f.source == "static"})
    if not modules:
        return []
    counts: Counter[str] = Counter()
    for start in starts:
        counts += base_static_fingerprints(project, modules, start, base)
    return new_by_fingerprint(findings, counts, LineReader(where))


def absolute_path(project: LintProject) -> Callable[[Finding], Path]:
    """Where a finding's file is on disk (findings hold addons-root-relative paths)."""

    def where(finding: Finding) -> Path:
        addon = project.addon_set.addons.get(finding.module)
        return addon.root / finding.path if addon is not None else Path(finding.path)

    return where
