"""The core views of an Odoo source (``ir.ui.view`` records and QWeb ``<template>``s), combined
as Odoo combines them: a primary view's arch with every core view extending it applied (only
the core modules a given module can have installed with it, when its dependencies are all
core), so an anchor is looked up where Odoo looks it up. A series pack gives the same shapes
(``pack_views``): what a real registry of the series knew, where a source reading is our parse."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from lxml import etree

from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.series import PackRef
from odoo_tools.sources import literal_file, xml_root
from odoo_tools.view_inheritance import apply_spec, mark, spec_elements

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
_PASSES = 3  # extensions of an extension whose anchor comes later in load order: tried again


@dataclass(frozen=True)
class CoreView:
    xml_id: str
    module: str
    arch: etree._Element  # the record's <field name="arch">
    parent: str | None
    primary: bool  # a view of its own (no parent, or mode primary), not an extension
    priority: int
    order: int  # reading order: the views of one module in file order


@dataclass
class CoreViews:
    """The views of a core source by xml id, the extensions of each, and the modules' manifests."""

    views: dict[str, CoreView] = field(default_factory=dict)
    extensions: dict[str, list[str]] = field(default_factory=dict)
    depends: dict[str, tuple[str, ...]] = field(default_factory=dict)
    auto_install: dict[str, bool] = field(default_factory=dict)

    @cached_property
    def load_rank(self) -> dict[str, int]:
        """Modules by dependency depth (a module is loaded after what it depends on)."""
        depth: dict[str, int] = {}

        def of(name: str, seen: frozenset[str] = frozenset()) -> int:
            if name not in depth:
                deps = [d for d in self.depends.get(name, ()) if d in self.depends and d not in seen]
                depth[name] = 1 + max((of(d, seen | {name}) for d in deps), default=0)
            return depth[name]

        ordered = sorted(self.depends, key=lambda m: (of(m), m))
        return {name: index for index, name in enumerate(ordered)}

    def base_of(self, xml_id: str) -> str:
        """The primary view whose combined arch an extension of ``xml_id`` is applied to."""
        seen = set()
        view = self.views[xml_id]
        while not view.primary and view.parent in self.views and view.xml_id not in seen:
            seen.add(view.xml_id)
            view = self.views[view.parent]
        return view.xml_id

    def installable_with(self, depends: Iterable[str]) -> frozenset[str] | None:
        """The core modules installed with a module depending on ``depends`` (their closure and
        the auto-installed ones); None when one of them is not core (then: every core module)."""
        modules: set[str] = set()
        pending = list(depends) or ["base"]
        while pending:
            name = pending.pop()
            if name not in self.depends:
                return None
            if name not in modules:
                modules.add(name)
                pending.extend(self.depends[name])
        grown = True
        while grown:
            extra = {
                m for m, auto in self.auto_install.items()
                if auto and m not in modules and self.depends[m] and set(self.depends[m]) <= modules
            }  # fmt: skip
            grown = bool(extra)
            modules |= extra
            for name in list(extra):
                pending.extend(self.depends[name])
        return frozenset(modules)


@cache
def core_views(source: CoreSource) -> CoreViews:
    """Every view of the source's core addons (data and demo files), or of the pack."""
    if isinstance(source, PackRef):
        return pack_views(source)
    views = CoreViews()
    for addons in (source / "odoo" / "addons", source / "addons"):
        if not addons.is_dir():
            continue
        for module in sorted(p for p in addons.iterdir() if (p / "__manifest__.py").is_file()):
            _read_manifest(views, module)
            for path in sorted(module.rglob("*.xml")):
                if "static" in path.relative_to(module).parts:
                    continue
                _read(views, module.name, path)
    return views


@cache
def pack_views(ref: PackRef) -> CoreViews:
    """``CoreViews`` of the pack: each view's own arch rebuilt from its skeleton (the elements and
    the attributes anchors use; no text), in Odoo's load order; inactive extensions left out, as
    Odoo leaves them out when it combines."""
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


def _read_manifest(views: CoreViews, module: Path) -> None:
    manifest = literal_file(module / "__manifest__.py")
    manifest = manifest if isinstance(manifest, dict) else {}
    depends = manifest.get("depends") or []
    views.depends[module.name] = tuple(str(d) for d in depends) if isinstance(depends, list) else ()
    views.auto_install[module.name] = bool(manifest.get("auto_install"))


def _read(views: CoreViews, module: str, path: Path) -> None:
    root = xml_root(path, _PARSER)
    if root is None:
        return
    for template in list(root.iter("template")):
        _read_template(views, module, template)
    for record in root.iter("record"):
        xml_id = record.get("id")
        arch = record.find("field[@name='arch']")
        if record.get("model") != "ir.ui.view" or not xml_id or arch is None:
            continue
        full = xml_id if "." in xml_id else f"{module}.{xml_id}"
        inherit = record.find("field[@name='inherit_id']")
        parent = inherit.get("ref") if inherit is not None else None
        parent = (parent if "." in parent else f"{module}.{parent}") if parent else None
        mode = record.find("field[@name='mode']")
        priority = record.find("field[@name='priority']")
        try:
            rank = int(priority.get("eval") or priority.text or 16) if priority is not None else 16
        except ValueError:
            rank = 16
        primary = parent is None or (mode is not None and (mode.text or "").strip() == "primary")
        views.views[full] = CoreView(full, module, arch, parent, primary, rank, len(views.views))
        if parent:
            views.extensions.setdefault(parent, []).append(full)


def _read_template(views: CoreViews, module: str, template: etree._Element) -> None:
    """A ``<template>``: the view Odoo makes of it (odoo/tools/convert.py): its element, renamed
    ``<t t-name="module.id">`` (or ``<data>`` for an extension), is the arch."""
    xml_id = template.get("id")
    if not xml_id or template.get("active") == "False":
        return  # an inactive one (a website option...) changes nothing until someone turns it on
    full = xml_id if "." in xml_id else f"{module}.{xml_id}"
    parent = template.get("inherit_id")
    parent = (parent if "." in parent else f"{module}.{parent}") if parent else None
    try:
        rank = int(template.get("priority") or 16)
    except ValueError:
        rank = 16
    primary = parent is None or template.get("primary") == "True"
    arch = etree.Element("field", name="arch")
    arch.append(template)  # moved out of its file's tree: nothing else reads that tree
    template.tag = "t" if parent is None else "data"
    template.attrib.clear()
    if parent is None:
        template.set("t-name", full)
    views.views[full] = CoreView(full, module, arch, parent, primary, rank, len(views.views))
    if parent:
        views.extensions.setdefault(parent, []).append(full)


@lru_cache(maxsize=128)  # a few MB each for the big settings views: bounded in a long-lived server
def combined(source: CoreSource, base: str, modules: frozenset[str] | None) -> etree._Element | None:
    """The arch of the primary view ``base`` with its core extensions applied (those of
    ``modules`` only, unless None), every element marked with the view that added it. Do not
    change it: copy it first."""
    views = core_views(source)
    view = views.views[base]
    if view.parent is not None and view.parent in views.views:
        parent = combined(source, views.base_of(view.parent), modules)
        return derived(source, base, modules, parent) if parent is not None else None
    roots = [child for child in view.arch if isinstance(child.tag, str)]
    if len(roots) != 1:
        return None
    return _extend(views, mark(copy.deepcopy(roots[0]), base), base, modules)


def derived(
    source: CoreSource, base: str, modules: frozenset[str] | None, parent: etree._Element
) -> etree._Element:
    """The primary view ``base`` that inherits (mode primary) a view combined as ``parent``."""
    views = core_views(source)
    root = copy.deepcopy(parent)
    for spec in spec_elements(views.views[base].arch):
        try:
            root = apply_spec(root, spec, base)
        except (LookupError, ValueError):
            continue
    return _extend(views, root, base, modules)


def _extend(
    views: CoreViews, root: etree._Element, base: str, modules: frozenset[str] | None
) -> etree._Element:
    rank = views.load_rank
    pending: list[tuple[str, etree._Element]] = []
    queue = list(views.extensions.get(base, []))
    while queue:  # every extension below ``base`` (not through a primary view)
        xml_id = queue.pop(0)
        view = views.views[xml_id]
        if view.primary or (modules is not None and view.module not in modules):
            continue
        pending += [(xml_id, spec) for spec in spec_elements(view.arch)]
        queue += views.extensions.get(xml_id, [])
    pending.sort(key=lambda item: _load_order(views, rank, item[0]))
    for _ in range(_PASSES):
        failed = []
        for xml_id, spec in pending:
            try:
                root = apply_spec(root, spec, xml_id)
            except (LookupError, ValueError):
                failed.append((xml_id, spec))
        if len(failed) == len(pending):
            break
        pending = failed
    return root


def _load_order(views: CoreViews, rank: dict[str, int], xml_id: str) -> tuple[int, int, int]:
    view = views.views[xml_id]
    return (view.priority, rank.get(view.module, 0), view.order)
