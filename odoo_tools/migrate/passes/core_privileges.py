"""What became of the core group categories when a series moved groups to privileges, told by the
two series' sources: a core group (same xml id in both) whose ``category_id`` was C in the source
series and whose ``privilege_id`` is P in the target series says that P took over C's groups.
19.0 did that (``res.groups`` lost ``category_id``, ``res.groups.privilege`` holds it); a pair of
sources where no group has a privilege yields nothing, so no series number is needed here."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lxml import etree

from odoo_tools.sources import literal_file, xml_root

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
HIDDEN = ""  # the outcome of a category whose groups mostly lost any privilege (core hid them)


@dataclass(frozen=True)
class Privilege:
    xml_id: str
    module: str
    category: str  # its category's xml id ('' when none)


@dataclass
class SeriesGroups:
    """One source's group data: each group's category (or privilege) ref, the privileges, the
    categories that exist (data records and the ones manifests' ``category`` create) by name."""

    groups: set[str] = field(default_factory=set)
    group_refs: dict[str, str] = field(default_factory=dict)
    privileges: dict[str, Privilege] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)  # xml id -> name


@dataclass(frozen=True)
class PrivilegeFacts:
    """``outcomes``: an old category's xml id -> the privilege that took its groups over (an xml
    id), or HIDDEN; a category absent had no single heir."""

    outcomes: dict[str, str]
    privileges: dict[str, Privilege]
    old_categories: dict[str, str]
    new_categories: frozenset[str]


def manifest_category_ids(category: str) -> dict[str, str]:
    """The categories a manifest's ``category`` creates, as Odoo creates them
    (odoo/modules/db.py ``create_categories``): 'Inventory/Purchase' gives
    base.module_category_inventory and base.module_category_inventory_purchase."""
    created: dict[str, str] = {}
    parts: list[str] = []
    for part in (p.strip() for p in category.split("/")):
        if not part:
            return created
        parts.append(part)
        slug = "_".join(x.lower() for x in parts).replace("&", "and").replace(" ", "_")
        created[f"base.module_category_{slug}"] = part
    return created


def full_id(ref: str, module: str) -> str:
    return ref if "." in ref else f"{module}.{ref}"


@cache
def series_groups(source: Path) -> SeriesGroups:
    found = SeriesGroups()
    for addons in (source / "odoo" / "addons", source / "addons"):
        if not addons.is_dir():
            continue
        for module in sorted(p for p in addons.iterdir() if (p / "__manifest__.py").is_file()):
            found.categories.update(manifest_category_ids(_manifest_category(module)))
            for path in sorted(module.rglob("*.xml")):
                if "static" not in path.relative_to(module).parts:
                    _read(found, module.name, path)
    return found


def _manifest_category(module: Path) -> str:
    manifest = literal_file(module / "__manifest__.py")
    category = manifest.get("category") if isinstance(manifest, dict) else None
    return category if isinstance(category, str) else ""


def _read(found: SeriesGroups, module: str, path: Path) -> None:
    root = xml_root(path, _PARSER)
    if root is None:
        return
    for record in root.iter("record"):
        xml_id, model = record.get("id"), record.get("model")
        if not xml_id:
            continue
        xml_id = full_id(xml_id, module)
        refs = {
            str(f.get("name")): full_id(str(f.get("ref")), module)
            for f in record.iter("field")
            if f.get("ref")
        }
        name = record.find("field[@name='name']")
        if model == "res.groups":
            found.groups.add(xml_id)
            ref = refs.get("privilege_id") or refs.get("category_id")
            if ref:
                found.group_refs[xml_id] = ref
        elif model == "res.groups.privilege":
            found.privileges[xml_id] = Privilege(xml_id, module, refs.get("category_id", ""))
        elif model == "ir.module.category":
            text = (name.text or "").strip() if name is not None else ""
            found.categories[xml_id] = text or found.categories.get(xml_id, "")


@cache
def privilege_facts(old_source: Path, new_source: Path) -> PrivilegeFacts:
    old, new = series_groups(old_source), series_groups(new_source)
    heirs: dict[str, Counter[str]] = {}
    for group, category in old.group_refs.items():
        if group in new.groups:  # a group gone from the target tells nothing
            privilege = new.group_refs.get(group, "")
            heirs.setdefault(category, Counter())[privilege if privilege in new.privileges else HIDDEN] += 1
    outcomes: dict[str, str] = {}
    for category, counts in heirs.items():
        if not new.privileges:
            break  # the target series has no privileges: nothing moved
        named = [p for p in counts if p != HIDDEN]
        if counts[HIDDEN] * 2 > sum(counts.values()):
            outcomes[category] = HIDDEN
        elif len(named) == 1 and not counts[HIDDEN]:
            outcomes[category] = named[0]
    return PrivilegeFacts(outcomes, new.privileges, old.categories, frozenset(new.categories))
