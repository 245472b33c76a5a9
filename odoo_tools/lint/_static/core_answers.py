"""What Odoo's core has, as the series pack says: the one place the data reference checks ask
about core external IDs and core methods.

The pack lists every external ID a real registry of the series holds with every LGPL Community
module installed, without demo data. Absence is claimed only where the pack can tell: the id's
module is one of the pack's modules and the pack lists external IDs at all. The ids Odoo makes
for a module's models and fields (``sale.model_sale_order``, ``sale.field_sale_order__name``)
exist when that module defines or extends the model or field; ``base.module_<name>`` for every
module. A module outside the pack (Enterprise, another repository's), a series without a pack,
or a reference from demo data (the pack has no demo records): None, never an error.

Methods: a model's methods are its closure's classes' (the index) plus, for each core model on
its inheritance path (itself, its ``_inherit`` parents, ``base``), the pack's methods that a
module of the closure (or the framework) defines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.series import SeriesPack, pack

if TYPE_CHECKING:
    from odoo_tools.lint._static.context import StaticContext


def core_pack(series: str | None) -> SeriesPack | None:
    """The pack the core's answers come from (None: the core cannot be known)."""
    found = pack(series)
    return found if found is not None and found.xmlids else None


def core_xmlid_exists(series: str | None, xml_id: str) -> bool | None:
    """True / False for a core module's external ID; None when it cannot be told."""
    source = core_pack(series)
    module, _, name = xml_id.partition(".")
    if source is None or not name or module not in source.modules:
        return None
    if name in source.xmlids.get(module, {}):
        return True
    if name.startswith("model_"):
        return _model_id(source, module, name[len("model_") :])
    if name.startswith("field_"):
        return _field_id(source, module, name[len("field_") :])
    if name.startswith("module_") and module == "base":
        return True if name[len("module_") :] in source.modules else None
    return False


def _model_id(source: SeriesPack, module: str, underscored: str) -> bool:
    for model in source.model_names:
        if model.replace(".", "_") == underscored:
            found = source.model(model)
            if found is not None and module in found.modules:
                return True
    return False


def _field_id(source: SeriesPack, module: str, rest: str) -> bool | None:
    underscored, sep, field_name = rest.partition("__")
    if not sep:
        return None
    for model in source.model_names:
        if model.replace(".", "_") == underscored:
            found = source.model(model)
            field = found.fields.get(field_name) if found is not None else None
            if field is not None and module in field.modules:
                return True
    return False


def method_exists(ctx: StaticContext, model: str, name: str) -> bool | None:
    """Whether ``model``, as the module sees it, has method ``name``; None when it cannot be told
    (a class we could not read, a parent no one knows, no pack for the series)."""
    resolved = ctx.resolver.model(model)
    if name in resolved.methods or name in resolved.loose_names:
        return True
    if not python_read(ctx):
        return None  # a file of the closure we could not parse may define it
    source = pack(ctx.series)
    if source is None or not _closure_known(ctx, source):
        return resolved.has_method(name)
    todo, seen = [model], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        own = [c for c in ctx.resolver.classes(current) if c.path]
        if any(c.item.opaque for c in own):
            return None
        core_model = source.model(current)
        core_seen = core_model.seen_from(ctx.closure) if core_model is not None else None
        if core_seen is not None and name in core_seen.methods:
            return True
        if not own and core_seen is None:
            return None  # a model neither the project nor the pack knows here
        todo += [parent for c in own for parent in c.item.parents]
        todo += list(core_seen.inherit) if core_seen is not None else []
        if current != "base":
            todo.append("base")
    return False


def _closure_known(ctx: StaticContext, source: SeriesPack) -> bool:
    """Every module of the closure is the project's or the pack's: a dependency neither knows (an
    Enterprise module, one the pack maker could not load) may add any method."""
    return all(name in ctx.addon_set.addons or name in source.modules for name in ctx.closure)


def python_read(ctx: StaticContext) -> bool:
    """Every Python file of the closure's project modules was parsed."""
    return not any(
        f.severity == "error"
        for module in ctx.closure
        if module in ctx.addon_set.addons
        for data in ctx.tables.files_by_module.get(module, [])
        if data.kind == "python"
        for f in data.findings
    )
