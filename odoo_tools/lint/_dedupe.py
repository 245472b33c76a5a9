"""One problem, one finding: drop a linter's report when a static check says the same thing.

The static checks carry the better message and hint (and know the dependency closure), so
when both ran, the linter's equivalent finding in the same module is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from odoo_tools.findings import Finding

# (source, code) -> the static check code that covers it.
COVERED_BY_STATIC = {
    ("oca-hooks", "file-not-used"): "data-file-unlisted",
    ("oca-hooks", "xml-duplicate-record-id"): "duplicate-xml-id",
    ("pylint", "F8101"): "data-file-missing",  # resource-not-exist
}
MISSING_FILE_TEXT = "No such file or directory"


def drop_duplicates(findings: Sequence[Finding], checks: Sequence[str]) -> list[Finding]:
    if "static" not in checks:
        return list(findings)
    static = {(f.module, f.code) for f in findings if f.source == "static"}
    return [f for f in findings if not _covered(f, static)]


def _covered(finding: Finding, static: set[tuple[str, str]]) -> bool:
    if (
        finding.source == "oca-hooks"
        and finding.code == "xml-syntax-error"
        and MISSING_FILE_TEXT in finding.message
    ):
        return (finding.module, "data-file-missing") in static
    covering = COVERED_BY_STATIC.get((finding.source, finding.code))
    return covering is not None and (finding.module, covering) in static
