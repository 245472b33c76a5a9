"""``find_model`` of a core model from the series pack: what the real registry of the series has
(every field, those reached through ``_inherits`` and added at registry build too, the methods the
core's modules define with their signatures, the primary views), then the project's own classes
that extend it. An Odoo source's classes of the modules the pack knows are left out: the pack says
the same, exactly, so the answer does not depend on having a source.
"""

from __future__ import annotations

from odoo_tools.addons import AddonSet
from odoo_tools.index._answers import FieldInfo, MethodInfo, ModelInfo, ModelPart, ViewSummary, model_part
from odoo_tools.index._pack_classes import field_type
from odoo_tools.index._records import ModelClass
from odoo_tools.index._tables import Located, Tables
from odoo_tools.series import PackField, PackModel, SeriesPack


def pack_model_info(pack: SeriesPack, model: PackModel, tables: Tables, addons: AddonSet) -> ModelInfo:
    info = ModelInfo(
        name=model.name,
        kind="abstract" if model.abstract else "transient" if model.transient else "model",
        order=model.order,
        rec_name=model.rec_name,
        inherits_from=list(model.inherit),
        delegates_to=dict(model.inherits),
        known_from=f"the Odoo {pack.series} series pack ({pack.odoo_version})",
    )
    own_fields = {name: f for name, f in model.fields.items() if not f.inherited}
    if model.modules:
        owner = model.modules[0]
        info.defined_in.append(
            ModelPart(
                module=owner,
                path="",
                line=0,
                class_name="",
                defines=True,
                kind=info.kind,
                fields_added=[n for n, f in own_fields.items() if f.modules[:1] == (owner,)],
                methods_added=[n for n, m in model.methods.items() if m.modules[:1] == (owner,)],
            )
        )
    info.core_extended_by = list(model.modules[1:])
    info.fields = [_field(model.name, f) for f in model.fields.values()]
    info.methods = [
        MethodInfo(module=m.modules[0], path="", line=0, name=m.name, params=m.params)
        for m in model.methods.values()
        if m.modules  # the framework's own (write, search...) every model has: not listed
    ]
    info.views = [
        ViewSummary(
            module=str(view.get("module") or xml_id.partition(".")[0]),
            path="",
            line=0,
            xml_id=xml_id,
            model=model.name,
            type=str(view.get("type") or ""),
            mode=str(view.get("mode") or ""),
            priority=view.get("priority") if isinstance(view.get("priority"), int) else None,
        )
        for xml_id, view in sorted(pack.views.items())
        if view.get("model") == model.name and view.get("mode") == "primary" and not view.get("inherit_id")
    ]
    _add_project(info, pack, tables, addons)
    return info


def _field(model: str, fdef: PackField) -> FieldInfo:
    return FieldInfo(
        module=fdef.modules[0] if fdef.modules else "",
        path="",
        line=0,
        model=model,
        name=fdef.name,
        type=field_type(fdef.type),
        comodel=fdef.comodel,
        inverse_name=fdef.inverse_name,
        related=fdef.related,
        compute=fdef.compute,
        inverse=fdef.inverse,
        store=None if fdef.store else False,
        required=fdef.required,
        readonly=fdef.readonly,
        selection=list(fdef.selection),
        via=fdef.inherited,
        overridden_in=list(fdef.modules[1:]),
    )


def _add_project(info: ModelInfo, pack: SeriesPack, tables: Tables, addons: AddonSet) -> None:
    """The classes of the project's modules (and of an Odoo source's modules the pack lacks)."""
    fields = {f.name: f for f in info.fields}
    for located in tables.model_classes.get(info.name, []):
        if _from_pack(located, pack, addons):
            continue
        cls = located.item
        info.extended_by.append(model_part(located))
        for fdef in cls.fields:
            known = fields.get(fdef.name)
            if known is not None:
                if located.module not in known.overridden_in:
                    known.overridden_in.append(located.module)
                known.selection.extend(k for k in fdef.selection_add if k not in known.selection)
                continue
            fields[fdef.name] = FieldInfo(
                module=located.module,
                path=located.path,
                line=fdef.line,
                model=info.name,
                name=fdef.name,
                type=fdef.type,
                comodel=fdef.comodel,
                inverse_name=fdef.inverse_name,
                related=fdef.related,
                compute=fdef.compute,
                inverse=fdef.inverse,
                store=fdef.store,
                required=fdef.required,
                readonly=fdef.readonly,
                string=fdef.string,
                selection=list(fdef.selection + fdef.selection_add),
            )
            info.fields.append(fields[fdef.name])
        info.methods.extend(
            MethodInfo(
                module=located.module,
                path=located.path,
                line=m.line,
                name=m.name,
                decorators=list(m.decorators),
            )
            for m in cls.methods
        )


def _from_pack(located: Located[ModelClass], pack: SeriesPack, addons: AddonSet) -> bool:
    return pack_module(pack, addons, located.module)


def pack_module(pack: SeriesPack, addons: AddonSet, module: str) -> bool:
    """A core module the pack knows, read from an Odoo source (or absent): the pack answers for it."""
    addon = addons.addons.get(module)
    return module in pack.modules and (addon is None or addon.readonly)


def defined_by_project(tables: Tables, pack: SeriesPack, addons: AddonSet, name: str) -> bool:
    """The project defines a model of that name itself (not depending on the core's)."""
    return any(
        c.item.defines and not pack_module(pack, addons, c.module) for c in tables.model_classes.get(name, [])
    )
