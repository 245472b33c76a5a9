"""Models: every new model has an access rule; every model a module builds on (``_inherit``,
relational fields' comodel, views, ACLs) comes from its dependency closure."""

from __future__ import annotations

from pathlib import PurePosixPath

from odoo_tools.findings import Finding
from odoo_tools.index import ModelClass
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.orm_python import path_through
from odoo_tools.series import SUPPORTED_SERIES, AccessFacts, series_facts


def check_models(ctx: StaticContext) -> list[Finding]:
    found: list[Finding] = []
    for data in ctx.files():
        if data.kind != "python":
            continue
        for model_class in data.models:
            extended = (
                model_class.parents if model_class.defines else (model_class.model, *model_class.parents)
            )
            for parent in extended:
                line = model_class.inherit_line or model_class.line  # the line naming the model
                found += _reachable(ctx, parent, "_inherit", data.path, line)
            for field in model_class.fields:
                if field.comodel:
                    # Odoo 18 only warns about a comodel it does not know (the field points to
                    # '_unknown'); the install fails when a related or depends path goes through it.
                    through = path_through(ctx, model_class.model, field.name)
                    found += [
                        f
                        if through
                        else f.model_copy(
                            update={
                                "severity": "warning",
                                "message": f.message + " Odoo installs it with a warning "
                                "(the field points nowhere until that module is installed).",
                            }
                        )
                        for f in _reachable(ctx, field.comodel, f"field {field.name}", data.path, field.line)
                    ]
            if model_class.defines and model_class.registered and not _test_only(data.path):
                found += _new_model(ctx, model_class, data.path)
    for _, data in ctx.loaded_file_data():
        for view in data.views:
            if view.model:
                found += _reachable(ctx, view.model, f"view {view.xml_id}", data.path, view.line)
        for row in data.access:
            if row.model_ref:
                found += _acl_model(ctx, row.model_ref, data.path, row.line)
            elif row.model_name:
                found += _reachable(ctx, row.model_name, f"access rule {row.xml_id}", data.path, row.line)
            group_module = row.group.rpartition(".")[0]
            if group_module and ctx.outside_closure(group_module):
                found.append(
                    ctx.finding(
                        "xml-id-not-in-dependencies",
                        f"Access rule grants group {row.group!r}, but {group_module!r} is not a dependency.",
                        f"Add {group_module!r} to 'depends' in the manifest, or use a group of a dependency.",
                        data.path,
                        row.line,
                    )
                )
    return found


def _reachable(ctx: StaticContext, model: str, via: str, path: str, line: int) -> list[Finding]:
    owners = ctx.model_owners(model)
    if not owners or owners & ctx.closure or not ctx.closure_complete:
        return []
    owner = sorted(owners)[0]
    return [
        ctx.finding(
            "model-not-in-dependencies",
            f"{via} uses model {model!r}, defined in {owner!r}, which is not a dependency of this module.",
            f"Add {owner!r} to 'depends' in __manifest__.py.",
            path,
            line,
        )
    ]


def _new_model(ctx: StaticContext, model_class: ModelClass, path: str) -> list[Finding]:
    found = []
    if model_class.kind != "abstract" and not _has_access(ctx, model_class.model):
        found.append(_missing_access(ctx, model_class, path))
    if not model_class.described:
        found.append(
            ctx.finding(
                "model-without-description",
                f"Model {model_class.model!r} has no _description; Odoo warns at every load.",
                '_description = "Readable Name" (shown in the UI and in access errors).',
                path,
                model_class.line,
                severity="warning",
            )
        )
    return found


def _test_only(path: str) -> bool:
    """Models under ``tests/`` exist only while tests run (FakeModelLoader, test registries)."""
    return "tests" in PurePosixPath(path).parts[1:-1]


def _touches(ctx: StaticContext, model: str) -> bool:
    """Odoo creates ``<module>.model_x`` for every module that defines *or extends* model x."""
    return any(m.model == model for data in ctx.files() for m in data.models)


def _has_access(ctx: StaticContext, model: str) -> bool:
    """Some row of the series' access model grants ``model`` to someone. On a series whose rows
    without a group only restrict (ir.access), those grant nothing; a row of a model the series
    does not have fails its file's load, it grants nothing either."""
    access = ctx.facts.access if ctx.facts else None
    rows = [
        loc.item
        for loc in ctx.tables.access
        if access is None
        or (loc.item.access_model == access.model and (loc.item.group or not access.group_less_restricts))
    ]
    return any(
        row.model_name == model
        or ctx.tables.model_of_ref(row.model_ref) == model
        or row.model_ref.rsplit(".", 1)[-1] == "model_" + model.replace(".", "_")
        for row in rows
    )


def _access_hint(ctx: StaticContext, model: str) -> str:
    """How to grant access on the project's series; on an unknown one, each way and its series."""
    if ctx.facts is not None:
        return _grant(ctx.facts.access, model)
    ways: dict[AccessFacts, list[str]] = {}
    for series in SUPPORTED_SERIES:
        ways.setdefault(series_facts(series).access, []).append(series)
    return " Or, ".join(
        f"on Odoo {', '.join(names)}: {_grant(access, model)}" for access, names in ways.items()
    )


def _grant(access: AccessFacts, model: str) -> str:
    header, line = access.example(model).split("\n")
    return (
        f"add a line to {access.csv_file} (header {header}) such as '{line}' and list that file in the "
        "manifest's data."
    )


def _missing_access(ctx: StaticContext, model_class: ModelClass, path: str) -> Finding:
    model = model_class.model
    hint = _access_hint(ctx, model)
    hint = hint[0].upper() + hint[1:]
    if _method_namespace(ctx, model_class):
        return ctx.finding(
            "missing-access-rule",
            f"Model {model!r} has no access rule (Odoo warns at install and update). It declares no fields, "
            "so its methods still work for every user (called with sudo() or as @api.model); "
            "only reading or writing its records needs a rule.",
            hint + " Or make it a models.AbstractModel if it only holds methods.",
            path,
            model_class.line,
            severity="warning",
        )
    message = f"Model {model!r} has no access rule: only the superuser can use it."
    return ctx.finding("missing-access-rule", message, hint, path, model_class.line)


def _method_namespace(ctx: StaticContext, model_class: ModelClass) -> bool:
    """A regular model with methods but no field of its own, no parent and no view or window
    action on it holds no user data: dashboards call its methods (RPC does not check model
    access for a method call), so the missing rule breaks nothing."""
    model = model_class.model
    if model_class.kind != "model" or model_class.parents or not model_class.methods:
        return False
    classes = [m for data in ctx.files() for m in data.models if m.model == model]
    if any(m.fields or m.parents or m.inherits for m in classes):
        return False
    shown = {view.model for _, data in ctx.loaded_file_data() for view in data.views}
    shown |= {action.res_model for _, data in ctx.loaded_file_data() for action in data.actions}
    return model not in shown


def _acl_model(ctx: StaticContext, model_ref: str, path: str, line: int) -> list[Finding]:
    """An ACL's model_id: ``model_x`` (or ``this_module.model_x``) needs the model defined here;
    ``other.model_x`` needs ``other`` among the dependencies."""
    module, _, name = model_ref.rpartition(".")
    if module and module != ctx.addon.name:
        if not ctx.outside_closure(module):
            return []
        return [
            ctx.finding(
                "xml-id-not-in-dependencies",
                f"Access rule refers to {model_ref!r}, but {module!r} is not a dependency of this module.",
                f"Add {module!r} to 'depends' in the manifest.",
                path,
                line,
            )
        ]
    model = ctx.tables.model_of_ref(name)
    if not model or _touches(ctx, model):
        return []
    owners = sorted(ctx.model_owners(model))
    where = f" (defined in {owners[0]!r})" if owners else ""
    return [
        ctx.finding(
            "acl-model-not-own",
            f"Access rule refers to {name!r}, but this module does not define that model{where}.",
            f"Qualify it with the defining module, e.g. '{owners[0] if owners else 'module'}.{name}'.",
            path,
            line,
        )
    ]
