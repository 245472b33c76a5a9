"""A ranked, token-budgeted text map of the project for a model's context.

Tokens are estimated as characters / 4. Modules are ranked: the ``focus`` modules first, then
the project modules related to them (dependencies and dependents), then the other project
modules (applications and bigger modules first). Read-only (Odoo source) modules are named
only as dependencies. Each module gets the most detailed block that still fits the budget
(full -> compact -> one line); whatever does not fit is counted at the end.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from odoo_tools.addons import AddonSet, SeriesInfo
from odoo_tools.index._core_names import core_dependencies
from odoo_tools.index._records import FieldDef, FileData, ModelClass
from odoo_tools.index._tables import Tables

DEFAULT_BUDGET = 1000
MIN_BUDGET = 100
MAX_BUDGET = 50_000
KEY_FIELDS_PER_MODEL = 8
CHARS_PER_TOKEN = 4


class ProjectMap(BaseModel):
    text: str = Field(description="The map, ready to put in a model's context")
    estimated_tokens: int = Field(description="len(text) / 4, rounded up")
    budget: int
    modules_shown: list[str] = Field(default_factory=list)
    modules_omitted: list[str] = Field(default_factory=list, description="Project modules left out")
    focus: list[str] = Field(default_factory=list)

    def render(self) -> str:
        return self.text


def estimate_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def build_project_map(
    addons: AddonSet,
    tables: Tables,
    series: SeriesInfo,
    budget: int = DEFAULT_BUDGET,
    focus: list[str] | None = None,
) -> ProjectMap:
    focus = [addons.get(name.strip()).name for name in focus or []]
    project = [a for a in addons.names() if not addons.addons[a].readonly]
    ranked = _rank(addons, tables, project, focus)
    header = _header(addons, series, project)
    limit = budget * CHARS_PER_TOKEN
    parts = [header]
    used = len(header)
    shown: list[str] = []
    for name in ranked:
        block = next((b for b in _blocks(addons, tables, name) if used + len(b) <= limit), None)
        if block is None:
            break
        parts.append(block)
        used += len(block)
        shown.append(name)
    omitted = [n for n in ranked if n not in shown]
    if omitted:
        tail = _omitted_line(omitted, limit - used)
        parts.append(tail)
    text = "".join(parts)
    return ProjectMap(
        text=text,
        estimated_tokens=estimate_tokens(text),
        budget=budget,
        modules_shown=shown,
        modules_omitted=omitted,
        focus=focus,
    )


def _rank(addons: AddonSet, tables: Tables, project: list[str], focus: list[str]) -> list[str]:
    related: set[str] = set()
    for name in focus:
        related |= addons.closure([name]) | addons.reverse_dependencies(name, transitive=False)

    def key(name: str) -> tuple[int, int, int, str]:
        group = 0 if name in focus else 1 if name in related else 2
        size = sum(len(f.models) for f in tables.files_by_module.get(name, []))
        return (group, 0 if addons.addons[name].manifest.application else 1, -size, name)

    first = [n for n in focus if not addons.addons[n].readonly]
    return first + sorted((n for n in project if n not in first), key=key)


def _header(addons: AddonSet, series: SeriesInfo, project: list[str]) -> str:
    known = {d for n in project for d in core_dependencies(addons, addons.addons[n], series.series)}
    core = sorted({d for n in project for d in addons.addons[n].depends if d not in project})
    core = [d if d in addons.addons or d in known else f"{d} (missing)" for d in core]
    lines = [
        f"# Odoo {series.series or '(series unknown)'} project: {len(project)} module(s)",
        f"core/external dependencies: {', '.join(core) or '-'}",
    ]
    return "\n".join(lines) + "\n"


def _blocks(addons: AddonSet, tables: Tables, name: str) -> list[str]:
    """The module at three levels of detail, most detailed first."""
    addon = addons.addons[name]
    files = tables.files_by_module.get(name, [])
    head = f"\n## {name} ({addon.manifest.version}) depends: {', '.join(addon.depends) or '-'}\n"
    summary = f"{addon.manifest.summary}\n" if addon.manifest.summary else ""
    defined, extended = _model_lines(files, detailed=True)
    full = head + summary + defined + extended + _xml_lines(files)
    compact_defined, compact_extended = _model_lines(files, detailed=False)
    compact = head + compact_defined + compact_extended
    models = sorted({c.model for f in files for c in f.models if c.defines})
    one_line = f"- {name}: {', '.join(models) or 'no models'}\n"
    return [full, compact, one_line]


def _model_lines(files: list[FileData], *, detailed: bool) -> tuple[str, str]:
    defined: list[str] = []
    extended: list[str] = []
    for data in files:
        for cls in data.models:
            if cls.defines:
                label = f"{cls.model}" + (f" ({cls.description})" if cls.description and detailed else "")
                fields = f": {_key_fields(cls)}" if detailed and cls.fields else ""
                defined.append(f"model {label}{fields}")
            else:
                added = f" +{', '.join(f.name for f in cls.fields)}" if detailed and cls.fields else ""
                extended.append(f"extends {cls.model}{added}")
    return _joined(defined), _joined(sorted(set(extended)))


def _key_fields(cls: ModelClass) -> str:
    """Required, relational and state-like fields first: what a model needs to write code."""

    def weight(field: FieldDef) -> int:
        if field.name in ("name", "state"):
            return 0
        return 1 if field.required else 2 if field.comodel else 3

    chosen = sorted(cls.fields, key=weight)[:KEY_FIELDS_PER_MODEL]
    text = ", ".join(
        f.name + ("*" if f.required else "") + (f"->{f.comodel}" if f.comodel else "")
        for f in sorted(chosen, key=lambda f: f.line)
    )
    more = len(cls.fields) - len(chosen)
    return text + (f" (+{more} more)" if more > 0 else "")


def _xml_lines(files: list[FileData]) -> str:
    views = [
        f"{v.xml_id.split('.', 1)[1]} [{v.model or v.inherit_id or '-'} {v.type or 'ext'}]"
        for f in files
        for v in f.views
    ]
    menus = [
        f"{m.name or m.xml_id}" + (f"->{m.action.split('.', 1)[-1]}" if m.action else "")
        for f in files
        for m in f.menus
    ]
    lines = []
    if views:
        lines.append("views: " + ", ".join(views))
    if menus:
        lines.append("menus: " + ", ".join(menus))
    return _joined(lines)


def _joined(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _omitted_line(omitted: list[str], room: int) -> str:
    line = f"\n(+{len(omitted)} more module(s): {', '.join(omitted)})\n"
    if len(line) <= room:
        return line
    short = f"\n(+{len(omitted)} more module(s))\n"
    return short if len(short) <= room else ""
