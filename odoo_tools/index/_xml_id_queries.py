"""The answer about one external ID: the records that define it (and whether their file is loaded),
and for a view its inheritance chain and the views that extend it."""

from __future__ import annotations

from odoo_tools.addons import AddonSet
from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.index._answers import XmlIdInfo, XmlRecordInfo
from odoo_tools.index._queries import suggest
from odoo_tools.index._tables import Tables
from odoo_tools.index._view_chain import ancestors, descendants, view_summary


def find_xml_id(tables: Tables, addons: AddonSet, xml_id: str, module: str | None) -> XmlIdInfo:
    full = _qualified_xml_id(tables, xml_id.strip(), module)
    located = tables.records[full]
    records = [
        XmlRecordInfo(
            module=r.module,
            path=r.path,
            line=r.item.line,
            xml_id=full,
            model=r.item.model,
            tag=r.item.tag,
            loaded=_is_loaded(addons, r.module, r.path),
        )
        for r in located
    ]
    info = XmlIdInfo(xml_id=full, records=records)
    if full in tables.views:
        info.view = view_summary(tables.views[full][-1])
        info.inheritance_chain = ancestors(tables, full)
        root = info.inheritance_chain[0]
        info.inherited_by = [
            view_summary(tables.views[x][-1]).model_copy(update={"type": root.type})
            for x in descendants(tables, full)
        ]
    return info


def _qualified_xml_id(tables: Tables, xml_id: str, module: str | None) -> str:
    if not xml_id:
        raise InvalidInput("Empty xml id.", "Give an xml id such as 'sale.view_order_form'.")
    if "." not in xml_id and module:
        xml_id = f"{module}.{xml_id}"
    if xml_id in tables.records:
        return xml_id
    if "." not in xml_id:
        hits = sorted(x for x in tables.records if x.endswith("." + xml_id))
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise InvalidInput(
                f"xml id {xml_id!r} exists in several modules: {', '.join(hits[:10])}.",
                "Qualify it with the module: module.xml_id.",
            )
    model_hint = " (model_* ids are created by Odoo for every model, not by a data file)"
    raise NotFound(
        f"No record with xml id {xml_id!r} in the indexed data files"
        + (model_hint if xml_id.rsplit(".", 1)[-1].startswith("model_") else "")
        + ".",
        suggest(xml_id, tables.records) or "Use module_info to see a module's records.",
    )


def _is_loaded(addons: AddonSet, module: str, path: str) -> bool:
    addon = addons.addons.get(module)
    inner = path.split("/", 1)[1] if "/" in path else path
    return bool(addon) and inner in (addon.manifest.data_files if addon else ())
