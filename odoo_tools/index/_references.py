"""Where a model, a field or an xml id is used, across the indexed Python, XML and CSV files.

A text search guided by the index, not a type checker:
- a model ``a.b`` matches the whole word ``a.b`` (not ``a.b.c``) and its ``model_a_b`` xml id;
- a field ``model.field`` matches the word ``field`` only in modules that can see the model
  (those that define or extend it and their dependents), in files that name the model or
  extend it;
- an xml id ``module.name`` matches ``module.name`` anywhere, and bare ``name`` in its module.
Project roots are searched before read-only roots (an Odoo source); ``limit`` caps the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.addons import AddonSet
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.index._answers import Reference, References
from odoo_tools.index._records import FileData
from odoo_tools.index._tables import Tables
from odoo_tools.storage import read_capped

KINDS = ("model", "field", "xml_id")
MAX_TEXT = 160


@dataclass(frozen=True)
class _Search:
    pattern: re.Pattern[str]
    needles: tuple[str, ...]  # cheap substring pre-check: a file must contain one of them
    modules: frozenset[str] | None  # None: every module
    file_filter: re.Pattern[str] | None = None  # the file must also match this
    skip_line: re.Pattern[str] | None = None  # e.g. the definition ``id="name"`` itself
    qualified: re.Pattern[str] | None = None  # xml ids: the module-qualified form ...
    owner: str = ""  # ... while a bare name only counts in this module


def find_references(
    tables: Tables, addons: AddonSet, target: str, kind: str | None, limit: int
) -> References:
    target = target.strip()
    if not target:
        raise InvalidInput("Empty target.", "Give a model (res.partner), field (res.partner.name) or xml id.")
    if limit < 1:
        raise InvalidInput(f"limit must be at least 1, got {limit}.", "Use the default (200).")
    kind = kind or _guess_kind(tables, target)
    if kind not in KINDS:
        raise InvalidInput(f"Unknown kind {kind!r}.", f"Use one of: {', '.join(KINDS)}.")
    search = {"model": _model_search, "field": _field_search, "xml_id": _xml_id_search}[kind](
        tables, addons, target
    )
    found: list[Reference] = []
    truncated = False
    for data in _files_in_search_order(tables, addons, search.modules):
        hits = _scan(addons, data, search)
        if len(found) + len(hits) > limit:
            found.extend(hits[: limit - len(found)])
            truncated = True
            break
        found.extend(hits)
    return References(target=target, target_kind=kind, references=found, truncated=truncated)


def _guess_kind(tables: Tables, target: str) -> str:
    if target in tables.model_classes:
        return "model"
    if target in tables.records:
        return "xml_id"
    model, _, field = target.rpartition(".")
    if model in tables.model_classes and field:
        return "field"
    raise NotFound(
        f"{target!r} is not a known model, model.field or xml id.",
        "Pass kind explicitly, or check the name with find_model / find_xml_id.",
    )


def _model_search(tables: Tables, addons: AddonSet, model: str) -> _Search:
    ref = "model_" + model.replace(".", "_")
    pattern = re.compile(rf"(?<![\w.]){re.escape(model)}(?![\w.])|(?<![\w]){re.escape(ref)}(?!\w)")
    return _Search(pattern, (model, ref), None)


def _field_search(tables: Tables, addons: AddonSet, target: str) -> _Search:
    model, _, field = target.rpartition(".")
    if model not in tables.model_classes or not field:
        raise NotFound(
            f"No model {model!r} for field {target!r}.", "Use find_field to locate the field first."
        )
    owners = {c.module for c in tables.model_classes[model]}
    visible = set(owners)
    for owner in owners:
        visible |= addons.reverse_dependencies(owner)
    return _Search(
        pattern=re.compile(rf"(?<![\w]){re.escape(field)}(?!\w)"),
        needles=(field,),
        modules=frozenset(visible),
        file_filter=re.compile(rf"(?<![\w.]){re.escape(model)}(?![\w.])"),
    )


def _xml_id_search(tables: Tables, addons: AddonSet, xml_id: str) -> _Search:
    module, _, name = xml_id.partition(".")
    if not module or not name:
        raise InvalidInput(
            f"xml id {xml_id!r} is not module-qualified.", "Use module.name, e.g. base.group_user."
        )
    full = re.escape(xml_id)
    bare = re.escape(name)
    return _Search(
        pattern=re.compile(rf"(?<![\w.]){full}(?!\w)|(?<![\w.]){bare}(?!\w)"),
        needles=(name,),
        modules=None,
        skip_line=re.compile(rf"""\bid=["']{bare}["']"""),
        qualified=re.compile(rf"(?<![\w.]){full}(?!\w)"),
        owner=module,
    )


def _files_in_search_order(
    tables: Tables, addons: AddonSet, modules: frozenset[str] | None
) -> list[FileData]:
    names = [m for m in tables.files_by_module if modules is None or m in modules]
    names.sort(key=lambda m: (addons.addons[m].readonly if m in addons.addons else True, m))
    return [data for name in names for data in tables.files_by_module[name]]


def _scan(addons: AddonSet, data: FileData, search: _Search) -> list[Reference]:
    addon = addons.addons.get(data.module)
    if addon is None:
        return []
    try:
        raw = read_capped(Path(addon.root, data.path))
    except OSError:
        return []
    if raw is None:
        return []  # over the cap: the index said so (file-too-large)
    text = raw.decode("utf-8", errors="replace")
    if not any(needle in text for needle in search.needles):
        return []
    if search.file_filter is not None and not search.file_filter.search(text):
        return []
    hits: list[Reference] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not search.pattern.search(line) or (search.skip_line and search.skip_line.search(line)):
            continue
        if _bare_hit_outside_module(search, line, data.module):
            continue
        stripped = line.strip()
        hits.append(
            Reference(
                module=data.module,
                path=data.path,
                line=number,
                kind=data.kind,
                text=stripped if len(stripped) <= MAX_TEXT else stripped[: MAX_TEXT - 3] + "...",
            )
        )
    return hits


def _bare_hit_outside_module(search: _Search, line: str, module: str) -> bool:
    """For xml ids: a bare ``name`` only counts inside the module that owns the id."""
    if search.qualified is None or module == search.owner:
        return False
    return not search.qualified.search(line)
