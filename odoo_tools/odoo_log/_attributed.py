"""Warnings Odoo logs about a module under validation become warning findings at its file:line.

"Field res.partner.team_id with unknown comodel_name None" marks a broken field although the
install succeeds. Only warnings that are the validated module's: a model or field it defines
(found in its syntax tree), a file of it named in the message, or an otherwise unnamed warning
logged while Odoo was loading it. Never an error: Odoo itself went on.
"""

from __future__ import annotations

import re

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._definitions import Definition, find_field, find_model
from odoo_tools.odoo_log._failures import LoadContext
from odoo_tools.odoo_log._paths import PathMapper
from odoo_tools.odoo_log._records import LogRecord

FIELD_RE = re.compile(r"^Field (?P<model>[\w.]+)\.(?P<field>\w+)\b")
TWO_FIELDS_RE = re.compile(r"^Two fields \((?P<field>\w+), (?P<other>\w+)\) of (?P<model>[\w.]+)\(\)")
NO_DESCRIPTION_RE = re.compile(r"^The model (?P<model>[\w.]+) has no _description")
METHOD_RE = re.compile(r"^method (?P<model>[\w.]+)\.(?P<method>\w+)\b")
MODEL_FIELD_RE = re.compile(r"^(?P<model>[a-z][\w]*(?:\.[\w]+)+)\.(?P<field>\w+): ")
PATH_LINE_RE = re.compile(r"(?P<file>/[^\s:'\"]+\.(?:py|xml|csv)):(?P<line>\d+)")
MANIFEST_RE = re.compile(r"\bmanifest for '(?P<module>[\w-]+)'")
# Loggers whose warnings are about the run itself (states reset, shutdown), never a module's code.
RUN_LOGGERS = ("odoo.modules.loading", "odoo.modules.registry", "odoo.service", "odoo.sql_db")


def attributed_warning(record: LogRecord, ctx: LoadContext, mapper: PathMapper) -> Finding | None:
    message = record.message
    named = _named_model(message)
    if named is not None:
        found = _definition(mapper, *named)
        return _finding(record, *found) if found else None
    path = PATH_LINE_RE.search(record.text)
    addon = mapper.map(path["file"]) if path else None
    if path and addon is not None and addon.module in mapper.modules:
        return _finding(record, addon.module, addon.rel, int(path["line"]))
    if path or record.logger == "py.warnings":  # it names (or comes from) code that is not ours
        return None
    manifest = MANIFEST_RE.search(message)
    if manifest and manifest["module"] in mapper.modules:
        return _finding(record, manifest["module"], _manifest_rel(mapper, manifest["module"]), None)
    if ctx.loading and ctx.module in mapper.modules and not record.logger.startswith(RUN_LOGGERS):
        return _finding(record, ctx.module, "", None)
    return None


def _named_model(message: str) -> tuple[str, str] | None:
    """(model, field or '') when the warning names one; None when it names none."""
    for pattern in (FIELD_RE, TWO_FIELDS_RE, MODEL_FIELD_RE):
        if match := pattern.match(message):
            return match["model"], match["field"]
    for pattern in (NO_DESCRIPTION_RE, METHOD_RE):
        if match := pattern.match(message):
            return match["model"], ""
    return None


def _definition(mapper: PathMapper, model: str, field: str) -> tuple[str, str, int] | None:
    """(module, path relative to its root, line) in a module under validation, else None."""
    for module in sorted(mapper.modules):
        folder = mapper.module_dir(module)
        if folder is None:
            continue
        found: Definition | None = find_field(folder, model, field) if field else find_model(folder, model)
        if found is not None:
            return module, f"{module}/{found.rel}", found.line
    return None


def _manifest_rel(mapper: PathMapper, module: str) -> str:
    folder = mapper.module_dir(module)
    return f"{module}/__manifest__.py" if folder is not None else ""


def _finding(record: LogRecord, module: str, rel: str, line: int | None) -> Finding:
    return Finding(
        source="odoo",
        code=kinds.ODOO_WARNING,
        severity="warning",
        module=module,
        path=rel,
        line=line,
        message=record.message.strip(),
        hint=kinds.HINTS[kinds.ODOO_WARNING],
        kind=kinds.ODOO_WARNING,
    )
