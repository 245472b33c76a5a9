"""One problem, one finding: merge what several sources say about the same problem.

Findings are grouped by (module, file, line, kind of problem): ``flake8 E999``, ``pylint
syntax-error``, the manifest reader and OCA's ``manifest-syntax-error`` are one kind ("the file
does not parse"). Each group keeps its most precise finding: from the source that knows most (our
static checks: dependency closure, a hint; then the manifest reader, pylint...), then one with a
line and a column.
Findings of different kinds never merge, even with the same module and code.

A file that does not parse has one syntax problem whatever line each parser blames, so that
kind merges per file. Duplicate xml ids are judged by the static checks when they ran (they read
the files in the manifest's load order, as Odoo does): OCA's per-file view is then left out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from odoo_tools.findings import Finding

KINDS: dict[tuple[str, str], str] = {
    ("manifest", "manifest-syntax"): "syntax",
    ("oca-hooks", "manifest-syntax-error"): "syntax",
    ("pylint", "E0001"): "syntax",
    ("flake8", "E999"): "syntax",
    ("ruff", "E999"): "syntax",
    ("ruff", "F601"): "duplicate-key",
    ("ruff", "F821"): "undefined-name",
    ("ruff", "F401"): "unused-import",
    ("ruff", "F841"): "unused-variable",
    ("ruff", "F811"): "reimported",
    ("index", "python-syntax"): "syntax",
    ("oca-hooks", "xml-syntax-error"): "xml-syntax",
    ("index", "xml-syntax"): "xml-syntax",
    ("pylint", "W0109"): "duplicate-key",
    ("flake8", "F601"): "duplicate-key",
    ("pylint", "E0602"): "undefined-name",
    ("flake8", "F821"): "undefined-name",
    ("pylint", "W0611"): "unused-import",
    ("flake8", "F401"): "unused-import",
    ("pylint", "W0612"): "unused-variable",
    ("flake8", "F841"): "unused-variable",
    ("pylint", "W0404"): "reimported",
    ("flake8", "F811"): "reimported",
    ("pylint", "F8101"): "missing-file",
    ("static", "data-file-missing"): "missing-file",
    ("oca-hooks", "file-not-used"): "unlisted-file",
    ("static", "data-file-unlisted"): "unlisted-file",
}
PER_FILE = frozenset({"syntax", "xml-syntax"})
# Most knowing first; a source not listed ranks last.
SOURCE_RANK = ("static", "manifest", "addons", "index", "pylint", "flake8", "ruff", "oca-hooks")
MISSING_FILE_TEXT = "No such file or directory"
_QUOTED_FILE = re.compile(r"""['"]([^'"]+\.(?:xml|csv|js|scss|css|py))['"]""")


def drop_duplicates(findings: Sequence[Finding], checks: Sequence[str]) -> list[Finding]:
    static_ran = "static" in checks
    static = {(f.module, f.code) for f in findings if f.source == "static"}
    kept: dict[tuple[object, ...], Finding] = {}
    order: list[tuple[object, ...]] = []
    mentions: Counter[tuple[object, ...]] = Counter()
    for finding in findings:
        if static_ran and _judged_by_static(finding, static):
            continue
        key = _key(finding)
        if key is not None and KINDS.get((finding.source, finding.code)) == "missing-file":
            # A file listed missing in both "data" and "demo" is two problems to one source: the
            # n-th mention of a source merges only with the n-th mention of another.
            mentions[(finding.source, *key)] += 1
            key = (*key, mentions[(finding.source, *key)])
        if key is None:
            order.append((id(finding),))
            kept[(id(finding),)] = finding
        elif key not in kept:
            order.append(key)
            kept[key] = finding
        elif _precision(finding) > _precision(kept[key]):
            kept[key] = finding
    return [kept[key] for key in order]


def _judged_by_static(finding: Finding, static: set[tuple[str, str]]) -> bool:
    if finding.source != "oca-hooks":
        return False
    if finding.code == "xml-duplicate-record-id":
        return True
    # OCA reports a data file the manifest lists but that is missing as an XML syntax error.
    return (
        finding.code == "xml-syntax-error"
        and MISSING_FILE_TEXT in finding.message
        and (finding.module, "data-file-missing") in static
    )


def _key(finding: Finding) -> tuple[object, ...] | None:
    kind = KINDS.get((finding.source, finding.code))
    if kind is None:
        return None
    if kind == "unlisted-file":  # OCA reports it at the manifest, naming the file
        names = _QUOTED_FILE.findall(finding.message)
        named = names[-1] if names and finding.source != "static" else finding.path
        return (finding.module, kind, named.rpartition(f"{finding.module}/")[2])
    if kind in PER_FILE:
        return (finding.module, finding.path, kind)
    if kind == "missing-file":  # each parser points at a different line; the file name is the key
        names = _QUOTED_FILE.findall(finding.message)  # the data file is named last
        return (finding.module, finding.path, kind, names[-1] if names else finding.line)
    return (finding.module, finding.path, finding.line, kind)


def _precision(finding: Finding) -> tuple[int, int, int]:
    rank = SOURCE_RANK.index(finding.source) if finding.source in SOURCE_RANK else len(SOURCE_RANK)
    return (-rank, finding.line is not None, finding.column is not None)
