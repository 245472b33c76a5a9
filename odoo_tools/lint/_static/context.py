"""What every static check reads: the addon, its declared dependency closure, the index."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.addons import Addon, AddonSet
from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding, Severity
from odoo_tools.index import FileData, ModelResolver, PackClasses, Tables, base_model_methods
from odoo_tools.lint._static.orm_rules import BASE_METHODS
from odoo_tools.series import SeriesFacts, SeriesPack, magic_fields, stable_core_models

SOURCE = "static"


@dataclass
class StaticContext:
    addon: Addon
    addon_set: AddonSet
    tables: Tables
    series: str | None  # the project's Odoo series, as detected (any, or None)
    facts: SeriesFacts | None  # what Odoo does on that series; None when it is not supported
    # Without an Odoo source: Odoo's core modules and their depends (bundled list), else empty.
    core: dict[str, tuple[str, ...]] = field(default_factory=dict)
    core_models: dict[str, str] = field(default_factory=dict)  # model -> core module (same list)
    core_auto_install: dict[str, tuple[str, ...]] = field(default_factory=dict)  # -> its triggers
    core_exact: bool = True  # an Odoo source, or the bundled list of the module's own series
    core_series: str | None = None  # the series of the bundled list used (None: an Odoo source)
    # The series pack of the module's own series: Odoo's core models as its registry has them,
    # with an Odoo source too (the core modules the pack knows are read from it, not the source).
    pack: SeriesPack | None = None

    @functools.cached_property
    def closure(self) -> frozenset[str]:
        """The module and its declared dependencies, found on disk or not; always ``base``,
        which Odoo installs first whatever the manifest says."""
        seen: set[str] = set()
        todo = [self.addon.name, "base"]
        while todo:  # core modules' own dependencies come from the bundled list
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                addon = self.addon_set.addons.get(name)
                todo.extend(addon.depends if addon else self.core.get(name, ()))
        return frozenset(seen)

    @functools.cached_property
    def closure_complete(self) -> bool:
        """Every dependency was found (``base`` depends on nothing, so it may stay unseen).
        When one is missing, its own dependencies are unknown: "not a dependency" cannot be told."""
        known = self.addon_set.addons.keys() | self.core.keys() | {"base"}
        return all(name in known for name in self.closure)

    @functools.cached_property
    def resolver(self) -> ModelResolver:
        """Models as the ORM builds them for this module (its closure's classes merged)."""
        if self.pack is not None:
            return self._pack_resolver(self.pack)
        base = self.addon_set.addons.get("base")
        source_base = base.path if base is not None and base.readonly else None
        return ModelResolver(
            self.tables,
            self.closure,
            self.closure_complete,
            self.core_models,
            magic_fields(self.facts),
            BASE_METHODS | base_model_methods(source_base),
            models_exact=self.core_exact,
        )

    def _pack_resolver(self, pack: SeriesPack) -> ModelResolver:
        """Core models from the pack; the closure's other modules from the index. A core module
        read from an Odoo source is the pack's: the same answers with a source as without."""
        replaced = frozenset(
            name
            for name in self.closure
            if name in pack.modules and ((addon := self.addon_set.addons.get(name)) is None or addon.readonly)
        )
        return ModelResolver(
            self.tables,
            self.closure,
            self.closure_complete,
            _Either(pack.owners, self.core_models),
            magic_fields(self.facts),
            BASE_METHODS,
            PackClasses(pack, self._with_auto_installed(pack)),
            models_exact=True,
            core_complete=True,
            pack_modules=replaced,
        )

    def _with_auto_installed(self, pack: SeriesPack) -> frozenset[str]:
        """The pack's modules of the closure, and the auto-install ones whose triggers all are in
        it: Odoo installs those along (mrp_account with mrp and stock_account), so their fields may
        be there when this module loads; nothing is claimed absent that one of them adds."""
        seen = set(pack.closure(self.closure))
        grown = True
        while grown:
            grown = False
            for name, module in pack.modules.items():
                if name in seen or not module.auto_install:
                    continue
                triggers = self.core_auto_install.get(name) or module.depends
                if all(t in seen for t in triggers):
                    seen |= pack.closure([name])
                    grown = True
        return frozenset(seen)

    def pack_answers_for(self, module: str) -> bool:
        """The series pack speaks for core ``module``: the pack knows it and it is not one of the
        project's own (an Odoo source's copy is read from the pack, for the same answers)."""
        addon = self.addon_set.addons.get(module)
        return self.pack is not None and module in self.pack.modules and (addon is None or addon.readonly)

    def outside_closure(self, module: str) -> bool:
        """``module`` is certainly not among the dependencies."""
        return module not in self.closure and self.closure_complete

    @functools.cached_property
    def loaded_files(self) -> list[str]:
        """Root-relative paths of the data files the manifest loads, in load order."""
        return [f"{self.addon.name}/{path}" for path in self.manifest_files]

    @functools.cached_property
    def manifest_files(self) -> list[str]:
        """Module-relative files the manifest makes Odoo load: data, then demo; the legacy
        ``qweb`` key only before 15.0 (every supported series ignores it, its files are assets)."""
        manifest = self.addon.manifest
        qweb = list(manifest.qweb) if self.facts is None else []
        return list(manifest.data) + qweb + list(manifest.demo)

    def files(self) -> list[FileData]:
        return self.tables.files_by_module.get(self.addon.name, [])

    def loaded_file_data(self) -> list[tuple[int, FileData]]:
        """(load position, file) for every data file the manifest loads and the index read."""
        by_path = {data.path: data for data in self.files()}
        return [(i, by_path[p]) for i, p in enumerate(self.loaded_files) if p in by_path]

    def model_owners(self, model: str) -> set[str]:
        """Modules that define ``model`` (its ``_name``), from the index or Odoo's well-known ones."""
        owners = {loc.module for loc in self.tables.model_classes.get(model, []) if loc.item.defines}
        core = self.core_models.get(model) or stable_core_models().get(model)
        if core:
            owners.add(core)
        return owners

    def absolute(self, rel: str) -> Path:
        return self.addon.root / rel

    def finding(
        self,
        code: str,
        message: str,
        hint: str,
        path: str,
        line: int | None,
        severity: Severity | None = None,
    ) -> Finding:
        """A finding of ``code``, graded as its catalogue entry says unless the check knows better
        (``severity``: a case the entry's note describes). A code without an entry is a KeyError:
        ``tests/catalogue`` catches it before it ships."""
        return Finding(
            source=SOURCE,
            code=code,
            symbol=code,
            severity=severity or entry(code).severity,
            module=self.addon.name,
            path=path,
            line=line,
            message=message,
            hint=hint,
        )


class _Either(Mapping[str, str]):
    """model -> core module from the pack, else from the bundled core list (a model of a module the
    pack maker could not install is known by name: nothing is claimed of it, it is not unknown)."""

    def __init__(self, first: Mapping[str, str], second: Mapping[str, str]) -> None:
        self.first, self.second = first, second

    def __getitem__(self, name: str) -> str:
        return self.first[name] if name in self.first else self.second[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self.first, *self.second]))

    def __len__(self) -> int:
        return sum(1 for _ in self)
