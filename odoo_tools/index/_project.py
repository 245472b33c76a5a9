"""``ProjectIndex``: the code index of a whole project, kept fresh incrementally.

    index = ProjectIndex(roots, readonly_roots, cache_dir=settings.cache_dir)
    index.find_model("library.book").render()

Every query first calls ``refresh()``, which costs one ``stat`` per indexed file when nothing
changed (files are re-read only when their stat changed, and re-parsed only when their content
hash changed). ``last_refresh`` and ``parse_count`` tell what was re-read (tests use them).
Nothing is imported or executed from the addons and no database is needed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import AddonSet, ManifestCache, SeriesInfo, discover_addons, project_series
from odoo_tools.findings import Finding, sort_findings
from odoo_tools.index import _queries as queries
from odoo_tools.index import _references as references
from odoo_tools.index._answers import FieldMatches, ModelInfo, References, XmlIdInfo
from odoo_tools.index._build import RefreshStats, update_entries
from odoo_tools.index._cache import CacheEntry, IndexCache, iter_source_files
from odoo_tools.index._core_names import unknown_modules
from odoo_tools.index._modules import ModuleInfo, ModuleSummary, list_modules, module_info
from odoo_tools.index._project_map import DEFAULT_BUDGET, ProjectMap, build_project_map
from odoo_tools.index._tables import ModuleTable, Tables, build_tables
from odoo_tools.index._xml_id_queries import find_xml_id
from odoo_tools.series import pack


class ProjectIndex:
    """Addons, their dependency graph, the series, and the code index, over a set of roots."""

    def __init__(
        self,
        roots: Sequence[Path],
        readonly_roots: Sequence[Path] = (),
        *,
        cache_dir: Path | None = None,
        odoo_path: Path | None = None,
        series_setting: str | None = None,
        workers: int | None = None,
        manifests: ManifestCache | None = None,
    ) -> None:
        self.roots = [Path(r) for r in roots]
        self.readonly_roots = [Path(r) for r in readonly_roots]
        self.odoo_path = odoo_path
        self.series_setting = series_setting
        self.workers = workers
        self._cache = IndexCache(cache_dir, self.roots + self.readonly_roots)
        self._entries: dict[str, CacheEntry] | None = None
        self._lock = threading.RLock()
        self.addons = AddonSet()
        self._tables: Tables | None = Tables()
        self._module_tables: dict[str, ModuleTable] = {}  # reused while their files are unchanged
        # parsed manifests; a Project passes its own, so lint and the index parse each one once
        self.manifests = manifests if manifests is not None else ManifestCache()
        self.series = SeriesInfo(None, "unknown")
        self.last_refresh = RefreshStats()
        self.parse_count = 0  # files parsed since this object was created

    def refresh(self) -> RefreshStats:
        """Re-discover addons and re-read what changed. Cheap when nothing did."""
        with self._lock:
            first = self._entries is None
            if self._entries is None:
                self._entries = self._cache.load()
            self.addons = discover_addons(self.roots, self.readonly_roots, self.manifests)
            entries, stats = update_entries(self._entries, iter_source_files(self.addons), self.workers)
            if stats.modules:
                self._cache.save(entries, stats.modules)
            if stats.changed or stats.rehashed or first:
                self._entries = entries
                for module in stats.modules:
                    self._module_tables.pop(module, None)
                self._tables = None  # rebuilt by the next query that needs it
            self.series = project_series(self.addons, self.odoo_path, self.series_setting)
            self.parse_count += len(stats.parsed)
            self.last_refresh = stats
            return stats

    @property
    def tables(self) -> Tables:
        """Lookup tables over every indexed file (built on first use after a change)."""
        with self._lock:
            if self._tables is None:
                rank = {name: i for i, name in enumerate(self.addons.install_order())}
                files = (e.data for e in (self._entries or {}).values())
                self._tables = build_tables(files, rank, self._module_tables)
                self._module_tables = {table.module: table for table in self._tables.modules}
            return self._tables

    def findings(self) -> list[Finding]:
        """Manifest problems, duplicate modules, dependency problems, and files that did not parse."""
        self.refresh()
        found = list(self.addons.findings) + self.addons.graph_findings()
        for files in self.tables.files_by_module.values():
            for data in files:
                found.extend(data.findings)
        return sort_findings(found)

    # -- queries (each refreshes first) -----------------------------------------------------

    def list_modules(
        self, root: str | None = None, installable: bool | None = None, depends_on: str | None = None
    ) -> list[ModuleSummary]:
        self.refresh()
        return list_modules(self.addons, root, installable, depends_on)

    def unknown_modules(self, names: Sequence[str]) -> list[str]:
        """Names that are neither modules of the roots nor Odoo core modules (see ``_core_names``)."""
        self.refresh()
        return unknown_modules(self.addons, self.series.series, names)

    def module_info(self, name: str) -> ModuleInfo:
        self.refresh()
        return module_info(self.addons, self.tables, name, self.series.series)

    def find_model(self, name: str) -> ModelInfo:
        self.refresh()
        return queries.find_model(self.tables, name, pack(self.series.series), self.addons)

    def find_field(self, field: str, model: str | None = None) -> FieldMatches:
        self.refresh()
        return queries.find_field(self.tables, field, model, pack(self.series.series), self.addons)

    def find_xml_id(self, xml_id: str, module: str | None = None) -> XmlIdInfo:
        self.refresh()
        return find_xml_id(self.tables, self.addons, xml_id, module)

    def find_references(self, target: str, kind: str | None = None, limit: int = 200) -> References:
        self.refresh()
        return references.find_references(self.tables, self.addons, target, kind, limit)

    def project_map(self, budget: int = DEFAULT_BUDGET, focus: list[str] | None = None) -> ProjectMap:
        self.refresh()
        return build_project_map(self.addons, self.tables, self.series, budget, focus)
