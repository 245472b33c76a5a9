"""Turn an error record with a traceback into one ``Finding`` at the addon's file:line."""

from __future__ import annotations

import ast
import html
import re
from dataclasses import dataclass

from odoo_tools.findings import Finding
from odoo_tools.odoo_log import kinds
from odoo_tools.odoo_log._definitions import find_depends, find_field, find_model
from odoo_tools.odoo_log._manifest_lines import manifest_entry_line
from odoo_tools.odoo_log._paths import AddonPath, PathMapper
from odoo_tools.odoo_log._traceback import Traceback
from odoo_tools.storage import capped_lines

WHILE_PARSING_RE = re.compile(r"while parsing (?P<file>\S+?):(?P<line>\d+)")
VIEW_CONTEXT_RE = re.compile(r"View error context:\s*(?P<ctx>\{.*?\})", re.S)
CSV_FILE_RE = re.compile(r"file (?P<file>\S+) could not be processed")
XML_LINE_RE = re.compile(r", line (?P<line>\d+), column (?P<col>\d+)")
MISSING_FILE_RE = re.compile(r"(?:No such file or directory: |File not found: )'?(?P<file>[^'\s]+)'?")
# Odoo 18+ quotes module names with "", 16 and 17 with '' (%r)
MODULE_IN_MSG_RE = re.compile(r"module [\"'](?P<module>[\w-]+)[\"']")
DEPENDS_ON_RE = re.compile(r"depends on module [\"'](?P<dep>[\w-]+)[\"']")
EXT_DEP_RE = re.compile(r"External dependency (?:version mismatch: )?(?P<dep>[^\s:]+)")
BIN_DEP_RE = re.compile(r"Unable to find '(?P<dep>[^']+)' in path")
FIELD_MODEL_RE = re.compile(r'Field "(?P<field>\w+)" does not exist in model "(?P<model>[\w.]+)"')
EXTERNAL_ID_RE = re.compile(r"External ID not found in the system: (?P<xmlid>[\w.]+)")
CSV_XMLID_RE = re.compile(r"external id '(?P<xmlid>[\w.]+)' in field '(?P<field>[^']+)'")


@dataclass
class LoadContext:
    """What Odoo was doing when it failed, from the progress lines before the error."""

    module: str = ""  # "Loading module <name>" / "module <name>: creating ..."
    data_file: str = ""  # "loading <module>/<file>"
    loading: bool = False  # between "Loading module <name>" and "Module <name> loaded in"


@dataclass
class Place:
    addon: AddonPath | None = None
    line: int | None = None
    column: int | None = None


def finding_from_traceback(tb: Traceback, ctx: LoadContext, mapper: PathMapper) -> Finding:
    message = tb.exc_message
    kind = _kind(tb)
    place = _locate(kind, tb, ctx, mapper)
    module = (place.addon.module if place.addon else "") or _module_from_message(message) or ctx.module
    finding = Finding(
        source="odoo",
        code=kind,
        symbol=tb.exc_short,
        severity="error",
        module=module,
        path=place.addon.rel if place.addon else "",
        line=place.line,
        column=place.column,
        message=decisive_line(tb),
        hint=kinds.HINTS[kind],
        kind=kind,
        traceback=tb.trimmed(),
    )
    _add_identifiers(finding, "\n".join([message, *(cause.exc_message for cause in tb.causes)]))
    return finding


def decisive_line(tb: Traceback) -> str:
    """The one line a developer needs: the error itself, without snippets and context dumps."""
    lines = tb.exc_lines
    if tb.exc_short == "ParseError" and tb.causes and "somewhere inside" in (lines[0] if lines else ""):
        return tb.causes[-1].headline  # the element is quoted; the cause says what is wrong with it
    if tb.exc_short == "ParseError":
        body = lines[1:]
        if "View error context:" in body:
            body = body[: body.index("View error context:")]
        candidates = [
            ln.strip()
            for ln in body
            if ln.strip() and not ln.startswith((" ", "\t")) and not ln.endswith(":")
        ]
        if candidates:
            return candidates[-1]
        return " ".join(ln.strip() for ln in lines if ln.strip())[:400]
    text = " ".join(ln.strip() for ln in lines if ln.strip())
    if len(text) > 400:
        text = lines[0].strip()
    prefix = f"{tb.exc_short}: " if tb.exc_short and tb.exc_short not in ("Exception", "UserError") else ""
    return prefix + text


def _kind(tb: Traceback) -> str:
    """A data-file ParseError only says where; its cause (SQL constraint...) says what."""
    kind = kinds.classify(tb.exc_short, tb.exc_message)
    if tb.causes and kind in ("", kinds.XML_DATA):
        kind = kinds.classify(tb.causes[-1].exc_short, tb.causes[-1].exc_message) or kind
    return kind or _kind_from_frames(tb)


FRAME_KINDS = (
    ("convert_csv_import", kinds.DATA_IMPORT),
    ("convert_xml_import", kinds.XML_DATA),
    ("load_openerp_module", kinds.PYTHON_ERROR),
)
QUOTED_RE = re.compile(r"'(?P<token>[^']+)'")


def _kind_from_frames(tb: Traceback) -> str:
    """Errors without a telling type (ValueError...) are named by the Odoo step that raised them."""
    functions = {frame.func for frame in tb.frames}
    for function, kind in FRAME_KINDS:
        if function in functions:
            return kind
    return kinds.PYTHON_ERROR if tb.addon_frames() else kinds.REGISTRY_FAILURE


def _locate(kind: str, tb: Traceback, ctx: LoadContext, mapper: PathMapper) -> Place:
    message = tb.exc_message
    if kind in (kinds.MISSING_DEPENDENCY, kinds.EXTERNAL_DEPENDENCY, kinds.MISSING_DATA_FILE):
        return _manifest_place(kind, message, ctx, mapper)
    parsing = WHILE_PARSING_RE.search(message)
    if parsing:
        causes = "\n".join(cause.exc_message for cause in tb.causes)
        return _view_or_record_place(parsing, f"{message}\n{causes}", mapper)
    csv_file = CSV_FILE_RE.search(message)
    if csv_file:
        addon = mapper.map(csv_file["file"]) or mapper.map_relative(csv_file["file"])
        xmlid = CSV_XMLID_RE.search(message)
        return Place(addon, _line_of(addon, xmlid["xmlid"] if xmlid else ""))
    if kind == kinds.DATA_IMPORT and ctx.data_file:
        addon = mapper.map_relative(ctx.data_file)
        quoted = QUOTED_RE.search(message)
        return Place(addon, _line_of(addon, quoted["token"] if quoted else ""))
    if kind == kinds.XML_SYNTAX:
        pos = XML_LINE_RE.search(message)
        addon = mapper.map_relative(ctx.data_file) if ctx.data_file else None
        return Place(addon, int(pos["line"]) if pos else None, int(pos["col"]) if pos else None)
    own = tb.addon_frames()
    if own:
        deepest = own[-1]
        return Place(deepest.addon, deepest.line)
    depends = WRONG_DEPENDS_RE.search(message)
    if depends:  # a depends path through a field that is gone: the decorator is to blame
        return _depends_place(mapper, depends["model"], depends["method"], depends["field"])
    field = FIELD_SETUP_RE.match(message)
    if field:  # raised by Odoo's field setup (19: unknown comodel): the definition is to blame
        return _field_place(mapper, field["model"], field["field"])
    missing = MISSING_MODEL_RE.match(message)
    if missing:  # raised while building the registry: the class that names the model is to blame
        return _model_place(mapper, missing["model"])
    if ctx.data_file:
        return Place(mapper.map_relative(ctx.data_file))
    return Place()


# "Field x.y with unknown comodel_name" (19.0), "Field x.y without selection" (a selection_add
# onto a field that is gone), "Field x.y with unknown ..."
FIELD_SETUP_RE = re.compile(r"^Field (?P<model>[\w.]+)\.(?P<field>\w+) with(?:out)? ")
WRONG_DEPENDS_RE = re.compile(
    r"Wrong @depends on '(?P<method>\w+)' \(compute method of field (?P<model>[\w.]+)\.(?P<field>\w+)\)"
)


def _depends_place(mapper: PathMapper, model: str, method: str, field: str) -> Place:
    for module in sorted(mapper.modules):
        folder = mapper.module_dir(module)
        found = find_depends(folder, model, method) if folder is not None else None
        if found is not None:
            return Place(mapper.map_relative(f"{module}/{found.rel}"), found.line)
    return _field_place(mapper, model, field)


def _field_place(mapper: PathMapper, model: str, field: str) -> Place:
    for module in sorted(mapper.modules):
        folder = mapper.module_dir(module)
        found = find_field(folder, model, field) if folder is not None else None
        if found is not None:
            return Place(mapper.map_relative(f"{module}/{found.rel}"), found.line)
    return Place()


MISSING_MODEL_RE = re.compile(r"^Model '(?P<model>[\w.]+)' does not exist in registry")


def _model_place(mapper: PathMapper, model: str) -> Place:
    for module in sorted(mapper.modules):
        folder = mapper.module_dir(module)
        found = find_model(folder, model) if folder is not None else None
        if found is not None:
            addon = mapper.map_relative(f"{module}/{found.rel}")
            return Place(addon, _line_of(addon, model, after=found.line) or found.line)
    return Place()


INVALID_FIELD_RE = re.compile(r"Invalid field '(?P<field>\w+)' on model")
MODEL_NOT_FOUND_RE = re.compile(r"Model not found: (?P<model>[\w.]+)")
NOT_LOCATED_RE = re.compile(r"Element '<\w+ \w+=\"(?P<value>[^\"]+)\"[^']*' cannot be located in parent view")


def _record_needles(message: str) -> list[str]:
    """Texts that the record's guilty line holds, from Odoo's message (first found wins)."""
    if field := FIELD_MODEL_RE.search(message) or INVALID_FIELD_RE.search(message):
        return [f'name="{field["field"]}"', f"name='{field['field']}'"]
    if model := MODEL_NOT_FOUND_RE.search(message):
        return [model["model"]]
    if element := NOT_LOCATED_RE.search(message):
        return [html.unescape(element["value"])]
    if xmlid := EXTERNAL_ID_RE.search(message):
        return [xmlid["xmlid"], xmlid["xmlid"].rsplit(".", 1)[-1]]  # the module prefix is optional
    return []


def _view_or_record_place(parsing: re.Match[str], message: str, mapper: PathMapper) -> Place:
    """``while parsing <file>:<record line>``; the record's guilty line is found in the file."""
    addon = mapper.map(parsing["file"]) or mapper.map_relative(parsing["file"])
    line = int(parsing["line"])
    if addon and addon.local:
        found = (_line_of(addon, needle, after=line) for needle in _record_needles(message))
        line = next((n for n in found if n), line)
    return Place(addon, line)


def _manifest_place(kind: str, message: str, ctx: LoadContext, mapper: PathMapper) -> Place:
    module = _module_from_message(message) or ctx.module
    addon = mapper.map_relative(f"{module}/__manifest__.py") if module else None
    if kind in (kinds.MISSING_DEPENDENCY, kinds.EXTERNAL_DEPENDENCY):
        # From the manifest's structure: the name may first appear in the description.
        key = "depends" if kind == kinds.MISSING_DEPENDENCY else "external_dependencies"
        dep = (DEPENDS_ON_RE if kind == kinds.MISSING_DEPENDENCY else EXT_DEP_RE).search(message)
        dep = dep or BIN_DEP_RE.search(message)
        local = addon.local if addon else None
        return Place(addon, manifest_entry_line(local, key, dep["dep"] if dep else "") if local else None)
    needle = ""
    missing = MISSING_FILE_RE.search(message)
    if missing:
        parts = missing["file"].replace("\\", "/").split("/")
        needle = "/".join(parts[parts.index(module) + 1 :]) if module in parts else parts[-1]
        addon = addon or mapper.map(missing["file"])
    return Place(addon, _line_of(addon, needle))


def _line_of(addon: AddonPath | None, needle: str, after: int = 0) -> int | None:
    """1-based line of the first occurrence of ``needle`` at or after line ``after``."""
    if not needle or addon is None or addon.local is None:
        return None
    lines = capped_lines(addon.local)
    for number, text in enumerate(lines, start=1):
        if number >= after and needle in text:
            return number
    return None


def _module_from_message(message: str) -> str:
    match = MODULE_IN_MSG_RE.search(message)
    return match["module"] if match else ""


def _add_identifiers(finding: Finding, message: str) -> None:
    context = VIEW_CONTEXT_RE.search(message)
    if context:
        values = literal_dict(context["ctx"])
        finding.xml_id = str(values.get("xmlid") or "")
        finding.model = str(values.get("view.model") or "")
    field = FIELD_MODEL_RE.search(message)
    if field:
        finding.field, finding.model = field["field"], finding.model or field["model"]
    external = EXTERNAL_ID_RE.search(message) or CSV_XMLID_RE.search(message)
    if external and not finding.xml_id:
        finding.xml_id = external["xmlid"]


def literal_dict(text: str) -> dict[str, object]:
    """The context is a pprint'ed dict whose record values (``ir.ui.view(247,)``) are not literals."""
    cleaned = re.sub(r"\b[\w.]+\([\d, ]*\)", "None", text)
    try:
        value = ast.literal_eval(cleaned)
    except (ValueError, SyntaxError):
        return {}
    return value if isinstance(value, dict) else {}
