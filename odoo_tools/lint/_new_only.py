"""New-only by consequence: static findings that are new since the git base, wherever they sit.

Lines changed since the base catch most new findings, but a cross-file finding may land on a
line nobody touched: deleting a model's access-rule lines leaves ``missing-access-rule`` on the
unchanged ``_name`` line. So the static checks also run on the base revision (exported to a
temporary folder, never checked out over the work tree) for the same modules, and a static
finding whose fingerprint (source, code, file, line text) is more frequent now than at the base
is new. The per-file linters (pylint, flake8, OCA's hooks) only see the file they report on, so
changed lines already cover them.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.lint._baseline import LineReader, fingerprint
from odoo_tools.lint._changes import repository_and_base
from odoo_tools.lint._project import LintProject, load_project


def base_static_fingerprints(
    project: LintProject, modules: Sequence[str], start: Path, base: str | None
) -> Counter[str]:
    """Fingerprints of the static findings of ``modules`` at the base revision."""
    from odoo_tools.lint._static import static_findings  # the static checks import the index

    repo, top, since = repository_and_base(start, base)
    own = [root for root in project.roots if root == top or top in root.parents]
    if not own:
        return Counter()
    readonly = sorted({a.root for a in project.addon_set.addons.values() if a.readonly})
    with tempfile.TemporaryDirectory(prefix="assista-base-") as tmp:
        folder = Path(tmp)
        archive = repo.git.archive(since, format="tar", stdout_as_string=False)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")  # no links out, no devices, no absolute paths
        roots = [folder / root.relative_to(top) for root in own if (folder / root.relative_to(top)).is_dir()]
        if not roots:
            return Counter()
        at_base = load_project(roots, readonly, series_setting=project.series)
        reader = LineReader(lambda f: at_base.addon_set.addons[f.module].root / f.path)
        counts: Counter[str] = Counter()
        for name in modules:
            addon = at_base.addon_set.addons.get(name)
            if addon is None or addon.readonly:
                continue
            for finding in static_findings(at_base, addon):
                counts[fingerprint(finding, reader(finding))] += 1
        return counts


def new_by_fingerprint(findings: Sequence[Finding], base: Counter[str], reader: LineReader) -> list[Finding]:
    """The static findings of ``findings`` that outnumber their fingerprint at the base."""
    left = Counter(base)
    new = []
    for finding in findings:
        if finding.source != "static":
            continue
        key = fingerprint(finding, reader(finding))
        if left[key] > 0:
            left[key] -= 1
        else:
            new.append(finding)
    return new
