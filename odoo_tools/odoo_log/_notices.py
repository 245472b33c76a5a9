"""Findings from records without a traceback: missing access rules, view warnings, deprecations,
and ERROR lines that say something on their own (missing dependencies)."""

from __future__ import annotations

import ast
import re

from odoo_tools.findings import Finding, Severity
from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._attributed import attributed_warning
from odoo_tools.odoo_log._failures import VIEW_CONTEXT_RE, LoadContext, literal_dict
from odoo_tools.odoo_log._paths import AddonPath, PathMapper
from odoo_tools.odoo_log._records import LogRecord
from odoo_tools.odoo_log._traceback import FRAME_RE

NO_ACCESS_RE = re.compile(r"^The models (?P<models>\[.*\]) have no access rules in module (?P<module>[\w-]+)")
PY_WARNING_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<category>\w*Warning): (?P<msg>.*)$")
MODULE_WORD_RE = re.compile(r"\bmodule (?P<module>[\w-]+)\b")
NOT_LOADED_RE = re.compile(r"^Some modules (?:are not loaded|have inconsistent states), some dependencies")
NOT_LOADED_LIST_RE = re.compile(r"(?P<names>\[[^\]]*\])\s*$")
QUIET_ERRORS = ("Failed to load registry", "At least one test failed")


def warning_finding(record: LogRecord, ctx: LoadContext, mapper: PathMapper) -> Finding | None:
    message = record.message
    if match := NO_ACCESS_RE.match(message):
        return _no_access(match, record)
    if "View error context:" in record.text:
        return _view_warning(record, mapper)
    if "DeprecationWarning" in message or "deprecated" in message:
        return _deprecation(record, ctx, mapper)
    if record.logger == "odoo.sql_db" and message.startswith("bad query"):
        return None  # the caller's traceback (or its handling) tells the real story
    if record.level == "ERROR" and NOT_LOADED_RE.match(message):
        return _not_loaded(record, mapper)
    if record.level == "ERROR" and not message.startswith(QUIET_ERRORS):
        return _finding(kinds.LOG_ERROR, ctx.module, None, None, record.text[:1000], "error")
    if record.level == "WARNING":
        return attributed_warning(record, ctx, mapper)
    return None


def _not_loaded(record: LogRecord, mapper: PathMapper) -> Finding:
    """ "Some modules are not loaded / have inconsistent states: [...]": an error only when it names
    a module under validation; about other modules (left in the database by something else) it
    says nothing about ours, as a plain odoo-bin run would not fail on it either."""
    listed = NOT_LOADED_LIST_RE.search(record.message)
    try:
        names = [str(n) for n in ast.literal_eval(listed["names"])] if listed else []
    except (ValueError, SyntaxError):
        names = []
    ours = [n for n in names if n in mapper.modules]
    if ours or not names:
        return _finding(
            kinds.MISSING_DEPENDENCY, ours[0] if ours else "", None, None, record.text[:1000], "error"
        )
    return _finding(kinds.MISSING_DEPENDENCY, "", None, None, record.text[:1000], "warning")


def _no_access(match: re.Match[str], record: LogRecord) -> Finding:
    try:
        models = [str(m) for m in ast.literal_eval(match["models"])]
    except (ValueError, SyntaxError):
        models = []
    finding = _finding(kinds.ACCESS_RULE, match["module"], None, None, message=record.lines[0])
    finding.model = models[0] if models else ""
    finding.hint = kinds.HINTS[kinds.ACCESS_RULE] + (
        " Odoo suggests:\n" + "\n".join(record.lines[1:]) if len(record.lines) > 1 else ""
    )
    return finding


def _view_warning(record: LogRecord, mapper: PathMapper) -> Finding:
    context_match = VIEW_CONTEXT_RE.search(record.text)
    values = literal_dict(context_match["ctx"]) if context_match else {}
    raw_file = str(values.get("file") or "")
    addon = (mapper.map(raw_file) or mapper.map_relative(raw_file)) if raw_file else None
    head = record.text.split("View error context:")[0].strip()
    finding = _finding(kinds.VIEW_WARNING, addon.module if addon else "", addon, None, head.splitlines()[-1])
    finding.xml_id = str(values.get("xmlid") or "")
    finding.model = str(values.get("view.model") or "")
    return finding


def _deprecation(record: LogRecord, ctx: LoadContext, mapper: PathMapper) -> Finding | None:
    """Only deprecations that point into an addon of ours: Odoo's own are not the user's to fix."""
    addon: AddonPath | None = None
    line: int | None = None
    text = record.message
    if match := PY_WARNING_RE.match(record.message):
        addon, line, text = mapper.map(match["file"]), int(match["line"]), match["msg"]
        if addon is None:
            addon, line = _deepest_addon_frame(record, mapper)
    module = addon.module if addon else ""
    if not module and (word := MODULE_WORD_RE.search(record.message)) and mapper.is_addon(word["module"]):
        module = word["module"]
    if not module:
        return None
    return _finding(kinds.DEPRECATION, module, addon, line, text)


def _deepest_addon_frame(record: LogRecord, mapper: PathMapper) -> tuple[AddonPath | None, int | None]:
    found: tuple[AddonPath | None, int | None] = (None, None)
    for raw in record.lines[1:]:
        frame = FRAME_RE.match(raw)
        if frame and (addon := mapper.map(frame["file"])) is not None:
            found = (addon, int(frame["line"]))
    return found


def _finding(
    kind: str,
    module: str,
    addon: AddonPath | None,
    line: int | None,
    message: str,
    severity: Severity | None = None,
) -> Finding:
    return Finding(
        source="odoo",
        code=kind,
        severity=severity or ("warning" if kinds.SEVERITY.get(kind) == "warning" else "error"),
        module=module,
        path=addon.rel if addon else "",
        line=line,
        message=message.strip(),
        hint=kinds.HINTS[kind],
        kind=kind,
    )
