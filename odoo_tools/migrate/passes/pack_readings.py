"""Migrate's readings of a core (methods, external IDs, views) made from a series pack instead of
an Odoo source: the same shapes the source readers give, so a pass compares two packs exactly as
it compares two sources. The pack is what a real registry of the series knew (every LGPL module
installed, no demo data), where a source reading is our parse of its files."""

from __future__ import annotations

import ast
import functools
import re
from typing import Any

from lxml import etree

from odoo_tools.series import PackRef

# What a default of a method looks like in inspect's text when it is no literal ("<function f>",
# "<object object at ...>"): made a name, so the signature parses and that default is not taken
_OPAQUE = re.compile(r"<[^<>]*>")
_KINDS = {"ir.model": "model", "ir.model.fields": "field"}


@functools.cache
def pack_methods(ref: PackRef) -> Any:
    """``CoreMethods`` of the pack: every model's methods as the registry resolved them (the
    framework's under ``base``, which ``CoreMethods.lookup`` falls back to), ``_inherit`` and
    ``_inherits`` parents as the model's parents."""
    from odoo_tools.migrate.passes.signatures import CoreMethods

    pack = ref.pack
    found = CoreMethods()
    framework = pack.framework_methods
    for name, params in framework.items():
        signature = _signature(params)
        if signature is not None:
            found.methods[("base", name)] = signature
    for model_name in pack.model_names:
        model = pack.model(model_name)
        if model is None:
            continue
        found.parents[model_name] = {p for p in (*model.inherit, *model.inherits) if p != model_name}
        for method in model.methods.values():
            if not method.modules and framework.get(method.name) == method.params:
                continue  # the framework's, found through ``base``
            signature = _signature(method.params)
            if signature is not None:
                found.methods[(model_name, method.name)] = signature
    return found


@functools.cache
def _signature(params: str) -> Any:
    """A ``Signature`` of inspect's text ``(self, vals, *, x=1) -> Domain``; None when it does not
    parse."""
    from odoo_tools.migrate.passes.signatures import _signature as of_function

    for text in (params, _OPAQUE.sub("_opaque_", params)):
        try:
            tree = ast.parse(f"def f{text}:\n    pass\n")
        except SyntaxError:
            continue
        function = tree.body[0]
        if isinstance(function, ast.FunctionDef):
            first = [a.arg for a in function.args.posonlyargs + function.args.args][:1]
            if first not in (["self"], ["cls"]):  # a static method: no receiver to leave out
                function.decorator_list.append(ast.Name("staticmethod"))
            return of_function(function)
    return None


@functools.cache
def pack_ids(ref: PackRef) -> Any:
    """``CoreIds`` of the pack: every external ID the installed modules have (data only: a pack is
    made without demo data, so a demo record is never said to be gone), the models' fields."""
    from odoo_tools.migrate.passes.core_xml_ids import CoreIds, ModelShape

    pack = ref.pack
    found = CoreIds(addons=set(pack.modules))
    for addon, names in pack.xmlids.items():
        for name, record_model in names.items():
            kind = _KINDS.get(record_model)
            if kind:
                found.made[f"{addon}.{name}"] = kind
            else:
                found.loaded[f"{addon}.{name}"] = "data"
    for model_name in pack.model_names:
        model = pack.model(model_name)
        if model is not None:
            parents = {p for p in (*model.inherit, *model.inherits) if p != model_name}
            found.models[model_name] = ModelShape(set(model.fields), parents, set(model.modules))
    return found


@functools.cache
def pack_views(ref: PackRef) -> Any:
    """``CoreViews`` of the pack: each view's own arch rebuilt from its skeleton (the elements and
    the attributes anchors use; no text), in Odoo's load order; inactive extensions left out, as
    Odoo leaves them out when it combines."""
    from odoo_tools.migrate.passes.core_views import CoreView, CoreViews

    pack = ref.pack
    views = CoreViews()
    for name, facts in pack.modules.items():
        views.depends[name] = facts.depends
        views.auto_install[name] = facts.auto_install
    ordered = sorted(pack.views.items(), key=lambda item: (int(item[1].get("order") or 0), item[0]))
    for xml_id, raw in ordered:
        parent = raw.get("inherit_id") or None
        primary = parent is None or raw.get("mode") == "primary"
        if raw.get("active") is False and not primary:
            continue
        arch = etree.Element("field", name="arch")
        root = _element(raw.get("arch"))
        if root is not None:
            arch.append(root)
        module = str(raw.get("module") or xml_id.partition(".")[0])
        priority = int(raw.get("priority") or 16)
        views.views[xml_id] = CoreView(xml_id, module, arch, parent, primary, priority, len(views.views))
        if parent:
            views.extensions.setdefault(parent, []).append(xml_id)
    return views


def _element(skeleton: Any) -> etree._Element | None:
    """``[tag, {attrs}, [children]]`` as an element (None for anything else)."""
    if not isinstance(skeleton, list) or not skeleton or not isinstance(skeleton[0], str):
        return None
    try:
        element = etree.Element(skeleton[0])
    except ValueError:
        return None
    attrs = skeleton[1] if len(skeleton) > 1 and isinstance(skeleton[1], dict) else {}
    for key, value in attrs.items():
        try:
            element.set(str(key), "" if value is None else str(value))
        except ValueError:
            continue
    for child in skeleton[2] if len(skeleton) > 2 and isinstance(skeleton[2], list) else ():
        found = _element(child)
        if found is not None:
            element.append(found)
    return element
