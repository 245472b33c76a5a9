"""Models, fields and methods as a real registry holds them (run inside Odoo by ``dump.py``).

Stdlib only. Each model: the addons whose classes define or extend it (the defining one first), its
``_inherit`` parents other than itself, ``_inherits``, abstract/transient, ``_rec_name``, ``_order``;
each field: its type and the attributes the checks need (never its label or help); each method: its
``inspect.signature`` text and the addons whose classes in the registry class's MRO define it (none for
a method only the framework defines, ``odoo.models.BaseModel`` and its kin: every model has it).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

ADDON_PREFIX = "odoo.addons."
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")  # a default's repr (<function f at 0x7f...>) differs per run


def field_modules_from_data(env: Any) -> dict[tuple[str, str], list[str]]:
    """(model, field) -> the modules owning the field's external IDs (what ir.model.fields'
    ``modules`` shows), from a database where the modules were installed."""
    env.cr.execute(
        "SELECT f.model, f.name, d.module FROM ir_model_data d"
        " JOIN ir_model_fields f ON d.model = 'ir.model.fields' AND d.res_id = f.id"
        " ORDER BY d.id"
    )
    found: dict[tuple[str, str], list[str]] = {}
    for model, name, module in env.cr.fetchall():
        found.setdefault((model, name), []).append(module)
    return found


def models(env: Any, order: list[str], field_data: dict[tuple[str, str], list[str]] | None) -> dict[str, Any]:
    rank = {name: position for position, name in enumerate(order)}
    found: dict[str, Any] = {}
    for name in sorted(env.registry.models):
        found[name] = _model(name, env[name], rank, field_data)
    return found


def factor_framework_methods(models: dict[str, Any]) -> dict[str, str]:
    """Take out of every model the methods only the framework defines with the same signature on
    every model (``write``, ``search``... of ``odoo.models.BaseModel``): name -> params, once for the
    pack. They were half of its bytes and of a reader's parsing time; a reader gives them back to
    every model (with no module: the framework's)."""
    everywhere: set[str] | None = None  # names every model has (overridden or not)
    params: dict[str, set[str]] = {}  # name -> its signatures where only the framework defines it
    for facts in models.values():
        names = set(facts["methods"])
        everywhere = names if everywhere is None else everywhere & names
        for name, method in facts["methods"].items():
            if not method["modules"]:
                params.setdefault(name, set()).add(method["params"])
    common = {n: next(iter(p)) for n, p in params.items() if len(p) == 1 and n in (everywhere or set())}
    framework = dict(sorted(common.items()))
    for facts in models.values():
        facts["methods"] = {
            n: m for n, m in facts["methods"].items() if m["modules"] or framework.get(n) != m["params"]
        }
    return framework


def _addon(klass: type) -> str | None:
    module = getattr(klass, "__module__", "") or ""
    return module.split(".")[2] if module.startswith(ADDON_PREFIX) and module.count(".") >= 2 else None


def _ordered(modules: set[str], rank: dict[str, int], first: str | None = None) -> list[str]:
    rest = sorted(modules - {first}, key=lambda m: (rank.get(m, len(rank)), m))
    return [first, *rest] if first in modules else rest


def _model(name: str, model: Any, rank: dict[str, int], field_data: Any) -> dict[str, Any]:
    cls = type(model)
    definers = {
        addon
        for klass in cls.__mro__
        if getattr(klass, "_name", None) == name and (addon := _addon(klass)) and "pool" not in vars(klass)
    }
    original = getattr(cls, "_original_module", None)
    own = _ordered(definers, rank, original)
    data: dict[str, Any] = {
        "modules": own,
        "abstract": bool(cls._abstract),
        "transient": bool(cls._transient),
        # read on a record: a module may make them properties (res.partner's _order in 18.0)
        "rec_name": str(model._rec_name or ""),
        "order": str(model._order or ""),
    }
    inherit = _parents(cls, name)
    if inherit:
        data["inherit"] = inherit
    introduced = getattr(cls, "_inherit_module", None)  # parent -> the module that added it here
    if isinstance(introduced, dict) and any(p != name and p != "base" for p in introduced):
        data["inherit_modules"] = {p: m for p, m in sorted(introduced.items()) if p not in (name, "base")}
    if cls._inherits:
        data["inherits"] = dict(sorted(cls._inherits.items()))
    data["fields"] = {
        fname: _field(field, cls, own, field_data, rank) for fname, field in sorted(cls._fields.items())
    }
    data["methods"] = _methods(cls, rank)
    return data


def _parents(cls: Any, name: str) -> list[str]:
    resolved = getattr(cls, "_inherit_module", None)  # parent -> the module that introduced it
    if isinstance(resolved, dict) and resolved:
        return sorted(p for p in resolved if p != name)
    inherit = cls._inherit or ()
    return sorted({inherit} if isinstance(inherit, str) else set(inherit) - {name})


def _method_name(value: Any) -> str:
    if isinstance(value, str):
        return value
    return str(getattr(value, "__name__", "") or "") if value else ""


def _field(
    field: Any, cls: Any, model_modules: list[str], field_data: Any, rank: dict[str, int]
) -> dict[str, Any]:
    data: dict[str, Any] = {"type": field.type}
    if field_data is not None and (cls._name, field.name) in field_data:
        modules = list(dict.fromkeys(field_data[(cls._name, field.name)]))
    else:
        modules = list(getattr(field, "_modules", None) or ())
    # fields Odoo adds at registry build (magic fields...) have no module of their own: the model's
    data["modules"] = _ordered(set(modules), rank) or model_modules[:1]
    comodel = getattr(field, "comodel_name", None)
    if comodel:
        data["comodel"] = comodel
    for key in ("inverse_name", "relation"):
        value = getattr(field, key, None)
        if isinstance(value, str) and value:
            data[key] = value
    inherited = _inherited_from(field, cls)
    if inherited:
        data["inherited"] = inherited
    elif isinstance(field.related, str) and field.related:
        data["related"] = field.related
    for key in ("compute", "inverse", "search"):
        value = _method_name(getattr(field, key, None))
        if value:
            data[key] = value
    if not field.store:
        data["store"] = False
    for key in ("required", "readonly", "delegate"):
        if getattr(field, key, False) is True:
            data[key] = True
    selection = getattr(field, "selection", None)
    if field.type in ("selection", "reference") and isinstance(selection, list | tuple):
        data["selection"] = [item[0] for item in selection]
    if field.groups:
        data["groups"] = field.groups
    return data


def _inherited_from(field: Any, cls: Any) -> str:
    """The model a field comes from through ``_inherits`` ("" when the model's own)."""
    if not getattr(field, "inherited", False):
        return ""
    parent = getattr(getattr(field, "inherited_field", None), "model_name", None)
    if parent:
        return str(parent)
    link = str(field.related or "").partition(".")[0]
    return next((model for model, fname in cls._inherits.items() if fname == link), "")


def _methods(cls: Any, rank: dict[str, int]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    definers: dict[str, set[str]] = {}
    for klass in cls.__mro__:
        addon = _addon(klass)
        for name, value in vars(klass).items():
            if name.startswith("__") and name.endswith("__"):
                continue
            function = _callable(value)
            if function is None:
                continue
            if name not in seen:
                seen[name] = function
                definers[name] = set()
            if addon and "pool" not in vars(klass):
                definers[name].add(addon)
    methods: dict[str, Any] = {}
    for name in sorted(seen):
        methods[name] = {"params": _signature(seen[name]), "modules": _ordered(definers[name], rank)}
    return methods


def _callable(value: Any) -> Any:
    """The function a class attribute is, when it is a method (the registry's ``pool``, a callable
    Registry, fields and other descriptors are not)."""
    if isinstance(value, staticmethod | classmethod):
        return value.__func__
    return value if inspect.isfunction(value) else None


def _signature(function: Any) -> str:
    try:
        return ADDRESS.sub(">", str(inspect.signature(function)))
    except (TypeError, ValueError):
        return "(...)"
