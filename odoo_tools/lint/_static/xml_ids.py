"""xml ids: references resolve in the module or its dependencies, before use in load order;
no id is defined twice in one module."""

from __future__ import annotations

from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.xml_scan import Ref, XmlScan

Position = tuple[int, int]  # (load position of the file, line)
IMPLICIT_PREFIXES = ("model_", "field_", "module_")  # ids Odoo creates itself (ir.model, fields...)


# ``_inherits`` records get an id for their parent record too: ``<id>_product_template``.
INHERITS_SUFFIXES = ("_product_template", "_res_partner", "_res_users", "_resource_resource", "_mail_alias")


def own_definitions(ctx: StaticContext) -> tuple[dict[str, Position], list[Finding]]:
    """Where each of the module's ids is first defined, and duplicate-id findings.

    The same id twice in one file is reported; a later file (demo data) updating a record of an
    earlier one is how Odoo modules set extra values, so it is not."""
    first: dict[str, tuple[Position, str]] = {}
    duplicates: list[Finding] = []
    for position, data in ctx.loaded_file_data():
        for record in data.records:
            here = (position, record.line)
            if record.xml_id in first and first[record.xml_id][1] == data.path:
                (_, first_line), first_path = first[record.xml_id]
                duplicates.append(
                    ctx.finding(
                        "duplicate-xml-id",
                        f"xml id {record.xml_id} is defined twice in this file (first at "
                        f"{first_path}:{first_line}); the second record overwrites the first one's values.",
                        "Give each record its own id, or merge the two records.",
                        data.path,
                        record.line,
                    )
                )
            elif record.xml_id not in first:
                first[record.xml_id] = (here, data.path)
    return {xml_id: pos for xml_id, (pos, _) in first.items()}, duplicates


def check_refs(ctx: StaticContext, scans: list[tuple[int, str, XmlScan]]) -> list[Finding]:
    defined, found = own_definitions(ctx)
    for position, path, scan in scans:
        for ref in scan.refs:
            problem = _problem(ctx, ref, (position, ref.line), defined)
            if problem is not None:
                code, message, hint = problem
                found.append(ctx.finding(code, message, hint, path, ref.line))
    return found


def _problem(
    ctx: StaticContext, ref: Ref, used_at: Position, defined: dict[str, Position]
) -> tuple[str, str, str] | None:
    module, _, name = ref.xml_id.partition(".")
    if not name:
        return None
    if module == ctx.addon.name:
        if name.startswith(IMPLICIT_PREFIXES):
            return None
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
    if module not in ctx.addon_set.addons or name.startswith(IMPLICIT_PREFIXES):
        return None  # a module we cannot see (no Odoo source): nothing to compare with
    if not _defined_in(ctx, module, ref.xml_id):
        return (
            "xml-id-undefined",
            f"{ref.via} refers to {ref.xml_id}, which module {module!r} does not define.",
            f"Check the id in {module!r} (find_xml_id helps), or define it.",
        )
    return None


def _inherits_parent(xml_id: str, defined: dict[str, Position]) -> Position | None:
    for suffix in INHERITS_SUFFIXES:
        if xml_id.endswith(suffix) and xml_id[: -len(suffix)] in defined:
            return defined[xml_id[: -len(suffix)]]
    return None


def _defined_in(ctx: StaticContext, module: str, xml_id: str) -> bool:
    addon = ctx.addon_set.addons[module]
    loaded = {f"{module}/{p}" for p in addon.manifest.data_files}
    return any(loc.module == module and loc.path in loaded for loc in ctx.tables.records.get(xml_id, []))
