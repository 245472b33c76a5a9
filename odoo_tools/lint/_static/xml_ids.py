"""xml ids: references resolve in the module or its dependencies, before use in load order
(where a module defines its own: ``own_xml_ids``)."""

from __future__ import annotations

from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.core_answers import core_xmlid_exists
from odoo_tools.lint._static.own_xml_ids import Position, own_definitions
from odoo_tools.lint._static.xml_scan import Ref, XmlScan, access_scans

ACCESS_COLUMNS = ("model_id:id", "group_id:id")  # refs of access CSV rows (``access_scans``)
IMPLICIT_PREFIXES = ("model_", "field_", "module_")  # ids Odoo creates itself (ir.model, fields...)


# ``_inherits`` records get an id for their parent record too: ``<id>_product_template``.
INHERITS_SUFFIXES = ("_product_template", "_res_partner", "_res_users", "_resource_resource", "_mail_alias")


def _auto_installed_alongside(ctx: StaticContext, module: str) -> str:
    """The triggers of ``module`` when it is an auto-install module whose triggers all lie in
    this module's dependency closure (auth_signup with mail): Odoo then installs it too."""
    addon = ctx.addon_set.addons.get(module)
    triggers = addon.manifest.auto_install_triggers if addon else ctx.core_auto_install.get(module)
    if triggers is None or not ctx.closure_complete:
        return ""
    needed = set(triggers)
    if not needed or not needed <= ctx.closure:
        return ""
    return ", ".join(sorted(needed))


def check_refs(ctx: StaticContext, scans: list[tuple[int, str, XmlScan]]) -> list[Finding]:
    defined, found = own_definitions(ctx)
    demo = {f"{ctx.addon.name}/{rel}" for rel in ctx.addon.manifest.demo}
    for position, path, scan in [*scans, *access_scans(ctx)]:
        for ref in scan.refs:
            problem = _problem(ctx, ref, (position, ref.line), defined, path in demo)
            if problem is None:
                continue
            code, message, hint = problem
            if ref.via in ACCESS_COLUMNS and code == "xml-id-not-in-dependencies":
                continue  # said of the access rule by models.py
            companion = _auto_installed_alongside(ctx, ref.xml_id.partition(".")[0])
            if code == "xml-id-not-in-dependencies" and companion:
                message += (
                    f" It auto-installs with {companion} (all among the dependencies), so the install"
                    " works as long as Odoo happens to load it first; declare it to be sure."
                )
                found.append(ctx.finding(code, message, hint, path, ref.line, severity="warning"))
            elif (
                code == "xml-id-undefined"
                and core_xmlid_exists(ctx.series, ref.xml_id) is None  # a real install knows better
                and (call := _function_before(ctx, ref.xml_id, (position, ref.line)))
            ):
                message += (
                    f" A <function> call ({call}) runs before it and may create it at load time;"
                    " if it does not, the install fails."
                )
                found.append(ctx.finding(code, message, hint, path, ref.line, severity="warning"))
            elif (
                code == "xml-id-undefined"
                and ref.xml_id.partition(".")[0] == ctx.addon.name
                and (hook := _pre_init_hook(ctx))
            ):
                # Odoo runs it before loading the module's data (l10n_br_stock's makes the ids of
                # its demo warehouses with ir.model.data._update_xmlids): we cannot tell what it makes
                message += f" Its pre_init_hook ({hook}) runs before the data files and may create it."
                found.append(ctx.finding(code, message, hint, path, ref.line, severity="warning"))
            elif ref.in_arch and (ctx.facts is None or ctx.facts.arch_unknown_group_warns):
                # ir.ui.view's check only logs "The group ... defined in view does not exist!"
                message += " Odoo installs the view anyway (a warning in its log)" + (
                    "." if code == "xml-id-used-before-definition" else "; the element is shown to no user."
                )
                found.append(ctx.finding(code, message, hint, path, ref.line, severity="warning"))
            else:
                found.append(ctx.finding(code, message, hint, path, ref.line))
    return found


def _pre_init_hook(ctx: StaticContext) -> str:
    """The name of the module's pre_init_hook ("" when it declares none; a name that is not an
    identifier, which Odoo could not call either, is not repeated into the report)."""
    hook = ctx.addon.manifest.raw.get("pre_init_hook")
    return hook if isinstance(hook, str) and hook.isidentifier() else ""


def _problem(
    ctx: StaticContext, ref: Ref, used_at: Position, defined: dict[str, Position], demo: bool = False
) -> tuple[str, str, str] | None:
    module, _, name = ref.xml_id.partition(".")
    if not name:
        return None
    if module == ctx.addon.name:
        if name.startswith(IMPLICIT_PREFIXES):
            return _own_model_id(ctx, ref)
        at = defined.get(ref.xml_id) or _inherits_parent(ref.xml_id, defined)
        if at is None:
            return (
                "xml-id-undefined",
                f"{ref.via} refers to {ref.xml_id}, which this module never defines.",
                "Define the record (in a file listed before this one), or fix the id "
                "(prefix it with the module that defines it).",
            )
        if at > used_at:
            return (
                "xml-id-used-before-definition",
                f"{ref.via} refers to {ref.xml_id} before it is defined (load order).",
                "Move the definition earlier, or list its file before this one in the manifest.",
            )
        return None
    if ctx.outside_closure(module):
        return (
            "xml-id-not-in-dependencies",
            f"{ref.via} refers to {ref.xml_id}, but {module!r} is not among this module's dependencies.",
            f"Add {module!r} to 'depends' in the manifest, or refer to an id of a dependency.",
        )
    if module not in ctx.addon_set.addons or (demo and ctx.pack_answers_for(module)):
        # The pack has no demo records, and a core module's demo data may make more ids than
        # its files list (point_of_sale's furniture scenario, by a function): from demo data, a
        # core module's id is not judged, with an Odoo source as without one.
        return None if demo else _core_problem(ctx, ref)
    if name.startswith(IMPLICIT_PREFIXES):  # Odoo makes them: the source's files do not hold them
        return _core_problem(ctx, ref) if ctx.addon_set.addons[module].readonly and not demo else None
    if (
        not _defined_in(ctx, module, ref.xml_id, demo)
        and not _made_in_its_name(ctx, ref.xml_id, used_at, defined)
        and core_xmlid_exists(ctx.series, ref.xml_id) is not True
    ):
        return (
            "xml-id-undefined",
            f"{ref.via} refers to {ref.xml_id}, which module {module!r} does not define.",
            f"Check the id in {module!r} (find_xml_id helps), or define it.",
        )
    return None


def _made_in_its_name(
    ctx: StaticContext, xml_id: str, used_at: Position, defined: dict[str, Position]
) -> bool:
    """A record of this module (loaded before the use) or of another module of the closure creates
    the id in the other module's name: ``<menuitem id="agreement.agreement_type_menu_main">`` in
    agreement_sale (OCA 18.0). Odoo takes a record id qualified with an installed module's name and
    makes that external ID, so the reference resolves (agreement_sale installs on the 18.0 lab)."""
    at = defined.get(xml_id)
    if at is not None:
        return at < used_at
    owner = xml_id.partition(".")[0]
    return any(
        loc.module in ctx.closure and loc.module not in (owner, ctx.addon.name)
        for loc in ctx.tables.records.get(xml_id, [])
    )


def _core_problem(ctx: StaticContext, ref: Ref) -> tuple[str, str, str] | None:
    """A core module's id (no Odoo source): the series pack says whether it exists; a record of
    the project that creates an id in the core module's name (``<record id="sale.x">``) counts."""
    if core_xmlid_exists(ctx.series, ref.xml_id) is not False:
        return None
    if any(loc.module in ctx.closure for loc in ctx.tables.records.get(ref.xml_id, [])):
        return None
    module = ref.xml_id.partition(".")[0]
    return (
        "xml-id-undefined",
        f"{ref.via} refers to {ref.xml_id}, which Odoo {ctx.series}'s {module!r} does not define "
        "(its series pack lists every external ID of the core).",
        f"Check the id in {module!r} (find_xml_id helps), or define it.",
    )


def _own_model_id(ctx: StaticContext, ref: Ref) -> tuple[str, str, str] | None:
    """``model_x_y`` of this module: Odoo makes it for each model the module's classes define or
    extend; another implicit id (``field_``, ``module_``) is not judged."""
    name = ref.xml_id.partition(".")[2]
    if not name.startswith("model_") or not _python_read(ctx):
        return None
    wanted = name[len("model_") :]
    own = {
        model
        for model, located in ctx.tables.model_classes.items()
        if any(loc.module == ctx.addon.name for loc in located)
    }
    if any(model.replace(".", "_") == wanted for model in own):
        return None
    if ref.via in ACCESS_COLUMNS and ctx.tables.model_of_ref(name):
        return None  # another module's model: acl-model-not-own says so (models.py)
    return (
        "xml-id-undefined",
        f"{ref.via} refers to {ref.xml_id}, but no class of this module defines or extends a model "
        f"named like {wanted!r}, so Odoo never creates that id.",
        "Use model_<model name with dots as underscores> of a model this module defines or extends "
        "(or qualify it with the module that does).",
    )


def _python_read(ctx: StaticContext) -> bool:
    """Every Python file of the module was read (a file we could not parse may define models)."""
    return all(
        not any(f.severity == "error" for f in data.findings) for data in ctx.files() if data.kind == "python"
    )


def _function_before(ctx: StaticContext, xml_id: str, used_at: Position) -> str:
    """A ``<function>`` call of the id's module that runs before ``used_at`` (this module) or
    at all (another module): "file:line", else ""."""
    module = xml_id.partition(".")[0]
    if module == ctx.addon.name:
        for position, data in ctx.loaded_file_data():
            for line in data.functions:
                if (position, line) < used_at:
                    return f"{data.path}:{line}"
        return ""
    addon = ctx.addon_set.addons.get(module)
    loaded = {f"{module}/{p}" for p in addon.manifest.data_files} if addon else set()
    for data in ctx.tables.files_by_module.get(module, []):
        if data.path in loaded and data.functions:
            return f"{data.path}:{data.functions[0]}"
    return ""


def _inherits_parent(xml_id: str, defined: dict[str, Position]) -> Position | None:
    for suffix in INHERITS_SUFFIXES:
        if xml_id.endswith(suffix) and xml_id[: -len(suffix)] in defined:
            return defined[xml_id[: -len(suffix)]]
    return None


def _defined_in(ctx: StaticContext, module: str, xml_id: str, demo: bool = False) -> bool:
    """``module`` defines ``xml_id`` in a file it loads; for a reference from demo data, in its
    demo files too (installed with demo, point_of_sale's demo shelves are there)."""
    addon = ctx.addon_set.addons[module]
    files = list(addon.manifest.data_files) + (list(addon.manifest.demo) if demo else [])
    loaded = {f"{module}/{p}" for p in files}
    return any(loc.module == module and loc.path in loaded for loc in ctx.tables.records.get(xml_id, []))
