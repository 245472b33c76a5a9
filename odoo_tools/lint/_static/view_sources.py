"""The views a module's inheriting views are combined with, as Odoo has them when it installs it:
the core views of the series pack (those of the core modules installed with it: its closure and
the auto-installed ones; active ones only), then the views of the closure's other modules read
from their data files, in load order (dependencies first, each module's files in manifest order).

A pack view is a skeleton (``odoo_tools.series.pack_maker.pack_views``): text and most attribute
values are dropped, so the chain built from it can only answer for the attributes it keeps
(``KEPT_VALUES``). A closure module neither in the pack nor on the addons path is "not read": its
views may add the anchor a spec looks for.

Every file is hostile: parsed with entities and network off, read through ``read_capped``, and only
when it lies inside its module's folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.view_files import ChainView, file_views
from odoo_tools.series import SeriesPack

# The attributes a pack skeleton keeps the value of (pack_views.KEPT; string on anchor tags).
KEPT_VALUES = frozenset(
    {"name", "id", "class", "position", "expr", "groups", "type", "mode", "t-name", "t-call", "t-set", "t-as"}
)
_FILE_ORDER = 1_000_000  # file views are created after every core view of the pack


@dataclass
class _PackIndex:
    """A pack's active views by xml id and by parent (made once per pack)."""

    raws: dict[str, dict[str, Any]] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)


_INDEXES: dict[str, tuple[SeriesPack, _PackIndex]] = {}  # pack path -> (that pack, its index)


def _pack_index(pack: SeriesPack) -> _PackIndex:
    key = str(pack.path)
    cached = _INDEXES.get(key)
    if cached is None or cached[0] is not pack:
        index = _PackIndex()
        for xml_id, raw in pack.views.items():
            if raw.get("active") is not False:
                index.raws[xml_id] = raw
                if raw.get("inherit_id"):
                    index.children.setdefault(str(raw["inherit_id"]), []).append(xml_id)
        cached = _INDEXES[key] = (pack, index)
    return cached[1]


@dataclass
class ChainViews:
    """Every view the module's views may be combined with: the pack's views of the modules taken
    from it (made lxml trees only when asked for), then the views read from files."""

    series: str = ""
    pack: _PackIndex = field(default_factory=_PackIndex)
    from_pack: frozenset[str] | None = None  # the modules whose pack views count; None: all
    files: dict[str, ChainView] = field(default_factory=dict)
    file_children: dict[str, list[str]] = field(default_factory=dict)
    unread: frozenset[str] = frozenset()  # closure modules whose views are not known

    @classmethod
    def of_pack(cls, pack: SeriesPack, modules: frozenset[str] | None = None) -> ChainViews:
        return cls(pack.series, _pack_index(pack), modules)

    def get(self, xml_id: str) -> ChainView | None:
        if xml_id in self.files:
            return self.files[xml_id]
        raw = self.pack.raws.get(xml_id)
        if raw is None or (self.from_pack is not None and raw.get("module") not in self.from_pack):
            return None
        return pack_view(self.series, xml_id, raw)

    def children_of(self, parent: str) -> list[str]:
        """The views inheriting ``parent`` (in no particular order)."""
        packed = [c for c in self.pack.children.get(parent, []) if c not in self.files and self.get(c)]
        return packed + self.file_children.get(parent, [])

    def add(self, view: ChainView) -> None:
        """A view read from a file (a record of a pack view's id rewrites that view)."""
        old = self.files.get(view.xml_id)
        if old is not None and old.parent and view.xml_id in self.file_children.get(old.parent, []):
            self.file_children[old.parent].remove(view.xml_id)
        self.files[view.xml_id] = view
        if view.parent:
            self.file_children.setdefault(view.parent, []).append(view.xml_id)


def chain_views(ctx: StaticContext) -> ChainViews:
    """The views of ``ctx``'s module and of everything installed with it."""
    pack = ctx.pack
    from_pack: frozenset[str] = frozenset()
    if pack is not None:
        from_pack = frozenset(
            m for m in _installed(ctx, pack) if ctx.pack_answers_for(m) or m not in ctx.closure
        )
        found = ChainViews.of_pack(pack, from_pack)
    else:
        found = ChainViews("", from_pack=from_pack)
    unread: set[str] = set()
    for rank, module in enumerate(_load_order(ctx, from_pack)):
        addon = ctx.addon_set.addons.get(module)
        if addon is None:
            unread.add(module)
            continue
        for position, view in enumerate(file_views(addon.path, module, addon.manifest.data)):
            found.add(_placed(view, _FILE_ORDER + rank * 100_000 + position))
    found.unread = frozenset(unread)
    return found


def _installed(ctx: StaticContext, pack: SeriesPack) -> frozenset[str]:
    """The pack's modules installed with the module: its closure, and the auto-install ones whose
    triggers all are in it (mrp_account with mrp and stock_account), but for the localisations
    (``l10n_*``): Odoo installs those only for a company of their country."""
    seen = set(pack.closure(ctx.closure))
    grown = True
    while grown:
        grown = False
        for name, module in pack.modules.items():
            if name in seen or not module.auto_install or name.startswith("l10n_"):
                continue
            if all(t in seen for t in ctx.core_auto_install.get(name) or module.depends):
                seen |= pack.closure([name])
                grown = True
    return frozenset(seen)


def _load_order(ctx: StaticContext, from_pack: frozenset[str]) -> list[str]:
    """The closure's modules not taken from the pack, dependencies first (the module last)."""
    ordered: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen or name in from_pack:
            return
        seen.add(name)
        addon = ctx.addon_set.addons.get(name)
        for dep in sorted(addon.depends if addon else ctx.core.get(name, ())):
            visit(dep)
        ordered.append(name)

    visit(ctx.addon.name)
    return ordered


def _placed(view: ChainView, order: int) -> ChainView:
    return ChainView(
        view.xml_id, view.module, view.model, view.parent, view.primary, view.priority, order,
        view.arch, view.skeleton, view.path, view.line,
    )  # fmt: skip


# (series, xml id) -> (the pack's entry, its tree): an entry of another pack of that series (a
# test's, a regenerated one) is not the same object, and is built again. Bounded by the packs' views.
_PACK_VIEWS: dict[tuple[str, str], tuple[dict[str, Any], ChainView | None]] = {}


def pack_view(series: str, xml_id: str, raw: dict[str, Any]) -> ChainView | None:
    """A pack view as an lxml tree, built once per pack (callers never change its tree); None
    for an inactive one (Odoo combines only active views) or one whose skeleton is not a tree."""
    key = (series, xml_id)
    cached = _PACK_VIEWS.get(key)
    if cached is None or cached[0] is not raw:
        cached = _PACK_VIEWS[key] = (raw, _pack_view(xml_id, raw))
    return cached[1]


def _pack_view(xml_id: str, raw: dict[str, Any]) -> ChainView | None:
    if raw.get("active") is False or not isinstance(raw.get("arch"), list):
        return None
    try:
        arch = skeleton_element(raw["arch"])
    except (ValueError, TypeError, IndexError):
        return None
    return ChainView(
        xml_id,
        str(raw.get("module") or xml_id.partition(".")[0]),
        str(raw.get("model") or ""),
        raw.get("inherit_id") or None,
        raw.get("mode") != "extension",
        _int(raw.get("priority"), 16),  # 0 is a priority (base_setup's settings form has it)
        _int(raw.get("order"), 0),
        arch,
        True,
    )


def skeleton_element(raw: list[Any]) -> etree._Element:
    """``[tag, {attrs}, [children]]`` as an lxml element (a bad tag name raises ValueError)."""
    tag, attrs, children = raw
    element = etree.Element(str(tag), {str(k): str(v) for k, v in dict(attrs).items()})
    for child in children:
        element.append(skeleton_element(child))
    return element


def _int(value: Any, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except (TypeError, ValueError):
        return default
