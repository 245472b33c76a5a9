"""CSV data files: the file name is the model (as Odoo loads them); ``ir.model.access.csv`` and
``ir.access.csv`` (Odoo 20.0, as its upgrade script 19.4-00-ir-access writes it:
``id,name,model_id,group_id/id,operation,domain``, the model by name or ``model_id:id``) rows
become access rules (model, group, permissions)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import PurePosixPath

from odoo_tools.findings import Finding
from odoo_tools.index._records import AccessRow, FileData, XmlRecord, access_row, qualify

ACCESS_MODELS = ("ir.model.access", "ir.access")
_ID_COLUMNS = ("id",)
_MODEL_COLUMNS = ("model_id:id", "model_id/id")
_GROUP_COLUMNS = ("group_id:id", "group_id/id")
Cell = Callable[[tuple[str, ...]], str]


def parse_csv(data: bytes, rel: str, module: str) -> FileData:
    """Index one CSV file. An undecodable file becomes a finding."""
    model = PurePosixPath(rel).stem
    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    except (UnicodeDecodeError, csv.Error) as exc:
        return _failed(rel, module, f"{rel} cannot be read as UTF-8 CSV: {exc}.")
    if not rows:
        return FileData(path=rel, module=module, kind="csv")
    header = [h.strip() for h in rows[0]]
    if "id" not in header:  # Odoo imports such rows without xml ids: nothing to find by id
        return FileData(path=rel, module=module, kind="csv")
    position = {name: i for i, name in enumerate(header)}
    records: list[XmlRecord] = []
    access: list[AccessRow] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cell = _reader(row, position)
        xml_id = qualify(cell(_ID_COLUMNS), module)
        if not xml_id:
            continue
        records.append(XmlRecord(xml_id, model, number, "csv"))
        if model in ACCESS_MODELS:
            access.append(_access_row(model, xml_id, number, cell, module))
    return FileData(path=rel, module=module, kind="csv", records=tuple(records), access=tuple(access))


def _reader(row: list[str], position: dict[str, int]) -> Cell:
    def cell(names: tuple[str, ...]) -> str:
        for name in names:
            index = position.get(name)
            if index is not None and index < len(row):
                return row[index].strip()
        return ""

    return cell


def _access_row(model: str, xml_id: str, line: int, cell: Cell, module: str) -> AccessRow:
    if model == "ir.access":
        by_xml_id = qualify(cell(_MODEL_COLUMNS), module)
        return access_row(
            xml_id,
            line,
            name=cell(("name",)),
            model_id=by_xml_id or cell(("model_id",)),
            group=qualify(cell(_GROUP_COLUMNS), module),
            operation=cell(("operation",)),
            domain=cell(("domain",)),
        )
    return AccessRow(
        xml_id=xml_id,
        line=line,
        name=cell(("name",)),
        model_ref=qualify(cell(_MODEL_COLUMNS), module),
        group=qualify(cell(_GROUP_COLUMNS), module),
        perm_read=_flag(cell(("perm_read",))),
        perm_write=_flag(cell(("perm_write",))),
        perm_create=_flag(cell(("perm_create",))),
        perm_unlink=_flag(cell(("perm_unlink",))),
    )


def _flag(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes")


def _failed(rel: str, module: str, message: str, line: int | None = None) -> FileData:
    finding = Finding(
        source="index",
        code="csv-error",
        module=module,
        path=rel,
        line=line,
        message=message,
        hint="Fix the file; it is left out of the code index until then.",
    )
    return FileData(path=rel, module=module, kind="csv", findings=(finding,))
