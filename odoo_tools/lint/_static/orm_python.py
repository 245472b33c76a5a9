"""The names a module's Python classes give the ORM, checked the way the ORM resolves them.

Each name is looked up on the model as the module's dependency closure builds it
(``ctx.resolver``): comodels, ``inverse_name``, compute/inverse/search methods, ``related``
paths, ``@api.depends/onchange/constrains`` names, ``selection_add``, ``_rec_name``, ``_order``,
``_inherit`` / ``_inherits`` targets and ``self.env["x.y"]``. A name is reported only when it
is certainly absent (see ``ModelResolver``); severities come from the code catalogue.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding
from odoo_tools.index import RELATIONAL, FieldDef, FileData, ModelClass, ModelResolver
from odoo_tools.lint._static.context import StaticContext

_METHOD_ATTRS = (("compute", "compute-method-missing"), ("inverse", "inverse-method-missing"))
_ORDER_TERM = re.compile(r"^\s*([A-Za-z_][\w.]*)")


def check_orm_python(ctx: StaticContext) -> list[Finding]:
    found: list[Finding] = []
    for data in ctx.files():
        if data.kind != "python" or _test_only(data.path):
            continue
        for model_class in data.models:
            if model_class.registered:
                found += _check_class(ctx, data, model_class)
        found += _env_models(ctx, data)
    return found


def _report(ctx: StaticContext, code: str, message: str, hint: str, path: str, line: int) -> Finding:
    rule = entry(code)
    return ctx.finding(code, f"{message}: {rule.why}.", hint, path, line, severity=rule.severity)


def _check_class(ctx: StaticContext, data: FileData, cls: ModelClass) -> list[Finding]:
    resolver = ctx.resolver
    found: list[Finding] = []
    for parent in (cls.model, *cls.parents) if not cls.defines else cls.parents:
        if resolver.defined_anywhere(parent) is False:
            found.append(
                _report(
                    ctx,
                    "inherit-unknown-model",
                    f"_inherit names model {parent!r}, which no module defines",
                    "Check the model name (find_model lists the models).",
                    data.path,
                    cls.inherit_line or cls.line,
                )
            )
    for target, _link in cls.inherits:
        if resolver.defined_anywhere(target) is False:
            found.append(
                _report(
                    ctx,
                    "inherits-unknown-model",
                    f"_inherits delegates to model {target!r}, which no module defines",
                    "Check the model name.",
                    data.path,
                    cls.inherits_line or cls.line,
                )
            )
    model = resolver.model(cls.model)
    for fdef in cls.fields:
        found += _check_field(ctx, data.path, cls, fdef)
    # An abstract mixin's @api.depends name fields of the models that will inherit it: Odoo
    # resolves them on those (OCA's product_barcode_required depends on 'barcode' this way).
    # Odoo reads a method's @api.depends only when a field of the model computes with it
    # (l10n_es_vat_book 19.0's line keeps a _compute_tax_rate no field names: it installs).
    computes = {located.item.compute for located in model.fields.values()}
    for method in cls.methods if cls.kind != "abstract" else ():
        for kind, line, names in method.field_names:
            if kind == "depends" and model.complete and method.name not in computes:
                continue
            found += _check_api_names(ctx, data.path, cls.model, kind, line, names, method.name)
    if cls.rec_name and model.has_field(cls.rec_name) is False:
        found.append(
            _report(
                ctx,
                "rec-name-unknown",
                f"_rec_name {cls.rec_name!r} is not a field of {cls.model}",
                "Name an existing field, or remove _rec_name ('name' is the default).",
                data.path,
                cls.rec_name_line or cls.line,
            )
        )
    for term in cls.order.split(","):
        match = _ORDER_TERM.match(term)
        name = match.group(1).split(".")[0] if match else ""
        if name and model.has_field(name) is False:
            found.append(
                _report(
                    ctx,
                    "order-field-unknown",
                    f"_order names {name!r}, not a field of {cls.model}",
                    "Order by existing (stored) fields.",
                    data.path,
                    cls.order_line or cls.line,
                )
            )
    return found


def _check_field(ctx: StaticContext, path: str, cls: ModelClass, fdef: FieldDef) -> list[Finding]:
    resolver = ctx.resolver
    found: list[Finding] = []
    if fdef.comodel and fdef.type in RELATIONAL:
        if resolver.defined_anywhere(fdef.comodel) is False:
            found.append(_unknown_comodel(ctx, path, cls, fdef))
        elif fdef.inverse_name and resolver.model(fdef.comodel).has_field(fdef.inverse_name) is False:
            found.append(
                _report(
                    ctx,
                    "inverse-name-unknown",
                    f"One2many {fdef.name}: {fdef.comodel} has no field {fdef.inverse_name!r}",
                    f"Name the Many2one of {fdef.comodel} that points back to {cls.model}.",
                    path,
                    fdef.line,
                )
            )
    model = resolver.model(cls.model)
    for attr, code in (*_METHOD_ATTRS, ("search", "search-method-missing")):
        method = getattr(fdef, attr)
        if method and model.has_method(method) is False:
            message = f"Field {fdef.name}: {attr}={method!r} is not a method of {cls.model}"
            hint = f"Define {method}() on the model, or fix the name."
            if code == "compute-method-missing" and not (fdef.store and not cls.defines):
                # Odoo 18 installs it; only a stored field added to an existing model (whose
                # records are computed at install) fails there.
                message += ": the install works, but reading the field raises AttributeError."
                found.append(ctx.finding(code, message, hint, path, fdef.line, severity="warning"))
            else:
                found.append(_report(ctx, code, message, hint, path, fdef.line))
    if fdef.related:
        code = "related-path-unknown"
        found += _path_finding(ctx, resolver, code, cls.model, fdef.related, path, fdef.line)
    if fdef.selection_add and not _defined_before(ctx, cls, fdef.name):
        found.append(
            _report(
                ctx,
                "selection-add-without-selection",
                f"Field {fdef.name} uses selection_add, but no earlier definition of "
                f"{cls.model}.{fdef.name} is a Selection to add to",
                "Use selection= for a new field; selection_add only extends an inherited one.",
                path,
                fdef.line,
            )
        )
    return found


def _unknown_comodel(ctx: StaticContext, path: str, cls: ModelClass, fdef: FieldDef) -> Finding:
    """Odoo only warns about an unknown comodel (the field points to ``_unknown``); the install
    fails when a related field or an ``@api.depends`` path goes through it."""
    message = f"Field {fdef.name} points to model {fdef.comodel!r}, which no module defines"
    hint = "Check the comodel name (find_model lists the models)."
    through = path_through(ctx, cls.model, fdef.name)
    if through:
        return _report(ctx, "comodel-unknown", f"{message}; {through} goes through it", hint, path, fdef.line)
    return ctx.finding(
        "comodel-unknown",
        f"{message}: Odoo logs a warning and the field points nowhere.",
        hint,
        path,
        fdef.line,
        severity="warning",
    )


def path_through(ctx: StaticContext, model: str, fname: str) -> str:
    """A related field or @api.depends of ``model`` (in the closure) whose path starts at ``fname``."""
    prefix = fname + "."
    for located in ctx.resolver.classes(model):
        if not located.path:
            continue
        for other in located.item.fields:
            if other.related.startswith(prefix):
                return f"related field {other.name} ({located.path}:{other.line})"
        for method in located.item.methods:
            for kind, line, names in method.field_names:
                if kind == "depends" and any(n.startswith(prefix) for n in names):
                    return f"@api.depends of {method.name} ({located.path}:{line})"
    return ""


def _defined_before(ctx: StaticContext, cls: ModelClass, name: str) -> bool:
    """Whether a Selection ``name`` exists on ``cls``'s model without ``cls`` (True when unknown)."""
    resolver = ctx.resolver
    model = resolver.model(cls.model)
    if not model.complete:
        return True
    for parent in (*cls.parents, *(p for p, _ in cls.inherits)):
        inherited = resolver.model(parent).fields.get(name)
        if inherited is not None and inherited.item.type == "Selection":
            return True
    for located in resolver.classes(cls.model):
        if located.item is cls:
            break
        if any(f.name == name and f.type == "Selection" for f in located.item.fields):
            return True
    return False


def _check_api_names(
    ctx: StaticContext, path: str, model: str, kind: str, line: int, names: tuple[str, ...], method: str
) -> list[Finding]:
    code = {"depends": "depends-field-unknown", "onchange": "onchange-field-unknown"}.get(
        kind, "constrains-field-unknown"
    )
    found: list[Finding] = []
    for name in names:
        if kind != "depends" and "." in name:
            continue  # onchange/constrains only take the model's own fields; Odoo says so itself
        found += _path_finding(ctx, ctx.resolver, code, model, name, path, line, f"@api.{kind} of {method}")
    return found


def _path_finding(
    ctx: StaticContext,
    resolver: ModelResolver,
    code: str,
    model: str,
    dotted: str,
    path: str,
    line: int,
    what: str = "",
) -> list[Finding]:
    broken = resolver.broken_segment(model, dotted)
    if broken is None:
        return []
    index, name, on_model = broken
    where = f" (segment {index + 1} of {dotted!r})" if "." in dotted else ""
    subject = what or f"related={dotted!r}"
    return [
        _report(
            ctx,
            code,
            f"{subject}: {on_model} has no field {name!r}{where}",
            "Check the field name on that model (find_model shows its fields).",
            path,
            line,
        )
    ]


def _env_models(ctx: StaticContext, data: FileData) -> list[Finding]:
    found = []
    for model, line in data.env_models:
        if ctx.resolver.defined_anywhere(model) is False:
            found.append(
                _report(
                    ctx,
                    "env-model-unknown",
                    f"self.env[{model!r}]: no module defines model {model!r}",
                    "Check the model name, or add the module that defines it to 'depends'.",
                    data.path,
                    line,
                )
            )
    return found


def _test_only(path: str) -> bool:
    return "tests" in PurePosixPath(path).parts[1:-1]
