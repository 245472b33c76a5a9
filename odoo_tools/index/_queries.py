"""Cross-module answers: models with every extension and field origin, and fields (an external ID's
answer is in ``_xml_id_queries``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from odoo_tools.addons import AddonSet
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.index._answers import (
    AccessInfo,
    FieldInfo,
    FieldMatches,
    MethodInfo,
    ModelInfo,
    model_part,
)
from odoo_tools.index._pack_answers import defined_by_project, pack_model_info, pack_module
from odoo_tools.index._records import AccessRow, FieldDef, ModelClass
from odoo_tools.index._tables import Located, Tables, model_ref_key
from odoo_tools.index._view_chain import ancestors
from odoo_tools.series import SeriesPack

MAX_SUGGESTIONS = 5


def find_model(
    tables: Tables, name: str, core: SeriesPack | None = None, addons: AddonSet | None = None
) -> ModelInfo:
    """A model with every class and field origin; a core model the series pack knows is answered
    from the pack (the project's extensions added), whatever source is configured."""
    core_model = core.model(name.strip()) if core is not None and addons is not None and name else None
    if core is not None and addons is not None and defined_by_project(tables, core, addons, name.strip()):
        core_model = None  # the project's own model of that name (it does not depend on the core's)
    if core is not None and core_model is not None and addons is not None:
        info = pack_model_info(core, core_model, tables, addons)
        own_views = [
            x
            for x in tables.views_by_model.get(name, [])
            if not pack_module(core, addons, tables.views[x][-1].module)
        ]
        info.views += [ancestors(tables, x)[-1] for x in own_views]
    else:
        classes = _classes_of(tables, name)
        info = ModelInfo(name=name)
        for located in classes:
            _apply_class(info, located)
        info.known_only_by_extension = not info.defined_in
        info.fields = list(_merged_fields(tables, name, set()).values())
        info.methods = [
            MethodInfo(module=c.module, path=c.path, line=m.line, name=m.name, decorators=list(m.decorators))
            for c in classes
            for m in c.item.methods
        ]
        info.views = [ancestors(tables, x)[-1] for x in tables.views_by_model.get(name, [])]
    key = model_ref_key(name)
    info.actions = [
        f"{a.item.xml_id} ({a.item.type}, {a.module})" for a in tables.actions_by_model.get(key, [])
    ]
    info.access = [
        AccessInfo(
            module=a.module,
            path=a.path,
            line=a.item.line,
            xml_id=a.item.xml_id,
            group=a.item.group,
            perms=_perms(a.item),
        )
        for a in tables.access_by_model.get(key, [])
    ]
    info.record_rules = [
        f"{r.item.xml_id}: {r.item.domain or '[]'} groups={','.join(r.item.groups) or 'global'} ({r.module})"
        for r in tables.rules_by_model.get(key, [])
    ]
    return info


def find_field(
    tables: Tables,
    field: str,
    model: str | None,
    core: SeriesPack | None = None,
    addons: AddonSet | None = None,
) -> FieldMatches:
    """Every definition of ``field`` (on ``model``, or on any model), in load order; on a core model
    the series pack knows, as its registry has it (with the project's redefinitions)."""
    if not field.strip():
        raise InvalidInput("Empty field name.", "Give a field name such as 'partner_id'.")
    core_model = core.model(model.strip()) if core is not None and model and model.strip() else None
    if (
        core is not None
        and addons is not None
        and core_model is not None
        and model
        and not defined_by_project(tables, core, addons, model.strip())
    ):
        known = {f.name: f for f in pack_model_info(core, core_model, tables, addons).fields}
        if field in known:
            return FieldMatches(field=field, model=model, matches=[known[field]])
        raise NotFound(
            f"No field {field!r} on {model} (Odoo {core.series} series pack, and the project).",
            suggest(field, known) or "Use find_model to see a model's fields.",
        )
    if model:
        classes = _classes_of(tables, model)
        matches = [_field_info(c, f) for c in classes for f in c.item.fields if f.name == field]
        if not matches:
            inherited = _merged_fields(tables, model, set()).get(field)
            matches = [inherited] if inherited else []
    else:
        matches = [
            _field_info(c, f)
            for classes in tables.model_classes.values()
            for c in classes
            for f in c.item.fields
            if f.name == field
        ]
    if not matches:
        known = _merged_fields(tables, model, set()) if model else {}
        raise NotFound(
            f"No field {field!r}" + (f" on {model}." if model else " on any indexed model."),
            suggest(field, known) or "Use find_model to see a model's fields.",
        )
    return FieldMatches(field=field, model=model or "", matches=matches)


# -- internals --------------------------------------------------------------------------------


def _classes_of(tables: Tables, name: str) -> list[Located[ModelClass]]:
    if not name or not name.strip():
        raise InvalidInput("Empty model name.", "Give a model name such as 'res.partner'.")
    classes = tables.model_classes.get(name.strip())
    if not classes:
        raise NotFound(
            f"No model {name!r} in the indexed addons.",
            suggest(name, tables.model_classes) or "Use list_modules / project_map to see the models.",
        )
    return classes


def _apply_class(info: ModelInfo, located: Located[ModelClass]) -> None:
    cls = located.item
    part = model_part(located)
    (info.defined_in if cls.defines else info.extended_by).append(part)
    if cls.defines:
        info.kind = cls.kind
    for attr in ("description", "order", "rec_name"):
        if getattr(cls, attr):
            setattr(info, attr, getattr(cls, attr))
    info.inherits_from.extend(p for p in cls.parents if p not in info.inherits_from)
    info.delegates_to.update(dict(cls.inherits))


def _merged_fields(tables: Tables, name: str, seen: set[str]) -> dict[str, FieldInfo]:
    """Fields of ``name``: its parents' first (``via``), then each class in load order."""
    if name in seen:
        return {}
    seen.add(name)
    fields: dict[str, FieldInfo] = {}
    for located in tables.model_classes.get(name, []):
        for parent in located.item.parents:
            for fname, finfo in _merged_fields(tables, parent, seen).items():
                fields.setdefault(
                    fname, finfo.model_copy(update={"via": finfo.via or parent, "model": name}, deep=True)
                )
        for field in located.item.fields:
            known = fields.get(field.name)
            if known is not None:
                # A redefinition adds to the field (selection_add, attributes); the origin stays.
                if located.module not in known.overridden_in and located.module != known.module:
                    known.overridden_in.append(located.module)
                known.selection.extend(k for k in field.selection_add if k not in known.selection)
            else:
                fields[field.name] = _field_info(located, field)
    return fields


def _field_info(located: Located[ModelClass], field: FieldDef) -> FieldInfo:
    return FieldInfo(
        module=located.module,
        path=located.path,
        line=field.line,
        model=located.item.model,
        name=field.name,
        type=field.type,
        comodel=field.comodel,
        inverse_name=field.inverse_name,
        related=field.related,
        compute=field.compute,
        inverse=field.inverse,
        store=field.store,
        required=field.required,
        readonly=field.readonly,
        string=field.string,
        selection=list(field.selection + field.selection_add),
    )


def _perms(row: AccessRow) -> str:
    letters = [("r", "perm_read"), ("w", "perm_write"), ("c", "perm_create"), ("u", "perm_unlink")]
    return "".join(letter if getattr(row, attr) else "-" for letter, attr in letters)


def suggest(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=MAX_SUGGESTIONS, cutoff=0.6)
    return f"Did you mean: {', '.join(close)}?" if close else ""
