"""A task's statement and kind, from the commit message and which kinds of files it touched.

The statement is what a user would ask for: the commit's own words (its subject without the OCA tag
and module prefix, and its body without trailers), never its diff. Which files the commit touched
(not their content) decides the kind."""

from __future__ import annotations

import re

# Leading tags: [FIX], [IMP/FIX], [17.0], [RFC]..., one or several.
TAG = re.compile(r"^\s*(\[[\w./ -]+\]\s*)+")
TRAILER = re.compile(r"^(Signed-off-by|Co-authored-by|Reviewed-by|closes|Closes|Fixes|fixes)\b.*$", re.M)
ACTION = {"FIX": "Fix", "IMP": "Improve", "ENH": "Improve", "PERF": "Speed up"}


def statement_of(series: str, module: str, manifest: dict[str, object], subject: str, body: str) -> str:
    tags = TAG.match(subject)
    words = TAG.sub("", subject)
    words = re.sub(rf"^\s*{re.escape(module)}\s*(:|-)\s*", "", words).strip()
    body = TRAILER.sub("", body).strip()
    body = re.sub(r"\n{3,}", "\n\n", body)
    title = manifest.get("name", module)
    found = [key for key in ACTION if tags and key in tags.group(0)]
    action = ACTION[found[0]] if found else "Change"
    lines = [
        f"In the Odoo {series} addon `{module}` ({title}), in this addons folder:"
        f" {action.lower()} the module as follows.",
        "",
        words[:1].upper() + words[1:],
    ]
    if body:
        lines += ["", body]
    lines += [
        "",
        "Change the module's code and data (models, views, security, wizards, reports, migrations)"
        " as needed. Hidden tests of the module will check the behaviour;"
        " the module's existing tests must keep passing.",
    ]
    return "\n".join(lines)


def kind_of(code_files: list[str], code_patch: str) -> str:
    """field+view | logic fix | wizard | security | report | migration step (first that applies)."""
    if any(f.startswith("migrations/") for f in code_files):
        return "migration step"
    if any(f.startswith("security/") or f.endswith("ir.model.access.csv") for f in code_files):
        return "security"
    if any(f.startswith(("wizard/", "wizards/")) for f in code_files):
        return "wizard"
    if any(f.startswith(("report/", "reports/")) for f in code_files):
        return "report"
    adds_field = re.search(r"^\+\s*\w+\s*=\s*fields\.", code_patch, re.M) is not None
    if adds_field and any(f.endswith(".xml") for f in code_files):
        return "field+view"
    return "logic fix"
