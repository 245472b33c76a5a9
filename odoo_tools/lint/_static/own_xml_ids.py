"""A module's own xml ids: where each is first defined in load order, and the ids defined twice
(in one file, or a menu in two files), or a data file the manifest lists twice."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.findings import Finding
from odoo_tools.index import XmlRecord
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.storage import capped_lines

Position = tuple[int, int]  # (load position of the file, line)


def own_definitions(ctx: StaticContext) -> tuple[dict[str, Position], list[Finding]]:
    """Where each of the module's ids is first defined, and duplicate-id findings.

    The same id twice in one file is reported, except the re-declaration idiom (the record once
    normally, once under ``noupdate``: values set on install only); a later file (demo data)
    updating a record of an earlier one is how Odoo modules set extra values, so it is not.
    A file the manifest lists twice is reported once, at the manifest, not once per record."""
    first: dict[str, tuple[Position, str, XmlRecord]] = {}
    duplicates: list[Finding] = []
    seen_files: set[str] = set()
    own = ctx.addon.name + "."
    menus: dict[str, tuple[str, int]] = {}  # first <menuitem> of each id
    for position, data in ctx.loaded_file_data():
        if data.path in seen_files:
            duplicates.append(_listed_twice(ctx, data.path))
            continue
        seen_files.add(data.path)
        for record in data.records:
            known = first.get(record.xml_id)
            menu = menus.get(record.xml_id)
            if record.tag == "menuitem" and menu is None:
                menus[record.xml_id] = (data.path, record.line)
            if known is None:
                first[record.xml_id] = ((position, record.line), data.path, record)
            elif not record.xml_id.startswith(own):
                continue  # writing values on another module's record, in steps
            elif known[1] == data.path and (known[2].noupdate, known[2].tag) == (record.noupdate, record.tag):
                duplicates.append(_duplicate(ctx, record.xml_id, known[0][1], data.path, record.line))
            elif record.tag == "menuitem" and menu is not None and menu[0] != data.path:
                duplicates.append(_menu_redefined(ctx, record.xml_id, *menu, data.path, record.line))
    return {xml_id: pos for xml_id, (pos, _, _) in first.items()}, duplicates


def _menu_redefined(
    ctx: StaticContext, xml_id: str, first_path: str, first_line: int, path: str, line: int
) -> Finding:
    return ctx.finding(
        "duplicate-xml-id",
        f"Menu {xml_id} is declared again here (first at {first_path}:{first_line}); this <menuitem> "
        "replaces the first one's parent, action and name.",
        "Give the second menu its own id, or keep a single <menuitem>.",
        path,
        line,
        severity="warning",
    )


def _duplicate(ctx: StaticContext, xml_id: str, first_line: int, path: str, line: int) -> Finding:
    return ctx.finding(
        "duplicate-xml-id",
        f"xml id {xml_id} is defined twice in this file (first at {path}:{first_line}); "
        "the second record overwrites the first one's values.",
        "Give each record its own id, or merge the two records.",
        path,
        line,
        severity="warning",  # Odoo loads it (the second one updates the record): a likely mistake
    )


def _listed_twice(ctx: StaticContext, path: str) -> Finding:
    manifest = ctx.addon.manifest.file
    listed = path.split("/", 1)[1]
    return ctx.finding(
        "duplicate-xml-id",
        f"The manifest lists {listed!r} twice, so Odoo loads that file twice: records with an id "
        "are only updated again, but records without an id are created twice and <function> "
        "calls run twice.",
        "Remove the second entry from the manifest.",
        manifest,
        _last_line_of(ctx.absolute(manifest), listed),
        # Odoo installs it and an id'd record ends the same: a manifest slip, not a likely bug
        severity="info",
    )


def _last_line_of(path: Path, needle: str) -> int | None:
    lines = capped_lines(path)
    hits = [number for number, text in enumerate(lines, start=1) if needle in text]
    return hits[-1] if hits else None
