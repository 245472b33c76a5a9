"""Addon discovery across roots, and the dependency graph.

Discovery walks each root's direct sub-folders that hold a manifest, in root order; a module
found twice keeps the first (as Odoo does) and the other copy is reported. Read-only roots (an
Odoo source: ``<odoo>/odoo/addons`` and ``<odoo>/addons``, see ``odoo_core_roots``) are knowledge
only and come after the project's roots.

Public API (stable):
- ``discover_addons(roots, readonly_roots=(), manifests=None) -> AddonSet``
- ``odoo_core_roots(odoo_path) -> list[Path]``; ``odoo_source_from_bin(odoo_bin) -> Path | None``
- ``Addon``: ``name``, ``path`` (module folder), ``root``, ``readonly``, ``manifest``, ``depends``,
  ``installable``, ``rel(path)``.
- ``AddonSet``: ``addons`` (name -> Addon, first root wins), ``duplicates``, ``findings``,
  ``get(name)`` (raises NotFound), ``closure(names, auto_install=False, keep_missing=False)``,
  ``reverse_dependencies(name, transitive=True)``, ``auto_install_expansion(names)``,
  ``missing_dependencies(names=None)``, ``cycles()``, ``install_order(names=None)``,
  ``graph_findings()`` (missing dependencies are errors when an Odoo source is configured,
  warnings otherwise, since core modules cannot be seen without one).
All results are sorted or ordered deterministically.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.addons._graph import depth_of, find_cycles
from odoo_tools.addons._manifest import Manifest, ManifestCache, find_manifest_file, read_manifest
from odoo_tools.errors import NotFound
from odoo_tools.findings import Finding, Severity


@dataclass(frozen=True)
class Addon:
    name: str
    path: Path  # the module folder, resolved
    root: Path  # the addons root it was found in, resolved
    readonly: bool
    manifest: Manifest

    @property
    def depends(self) -> tuple[str, ...]:
        return self.manifest.depends

    @property
    def installable(self) -> bool:
        return self.manifest.installable

    def rel(self, path: Path) -> str:
        """``path`` relative to this addon's root (POSIX), the form findings use."""
        return path.relative_to(self.root).as_posix()


@dataclass(frozen=True)
class Duplicate:
    name: str
    kept: Path
    ignored: Path


@dataclass
class AddonSet:
    addons: dict[str, Addon] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # manifest + duplicate findings
    has_odoo_source: bool = False  # read-only roots given: core modules (base, web...) are known

    def __contains__(self, name: object) -> bool:
        return name in self.addons

    def names(self) -> list[str]:
        return sorted(self.addons)

    def get(self, name: str) -> Addon:
        try:
            return self.addons[name]
        except KeyError:
            raise NotFound(
                f"No addon named {name!r} in the addons roots.",
                "Use list_modules to see the modules found (the name is the folder name).",
            ) from None

    # -- dependency graph ----------------------------------------------------------------------

    def closure(
        self, names: Iterable[str], *, auto_install: bool = False, keep_missing: bool = False
    ) -> set[str]:
        """``names`` and everything they depend on (missing dependencies are left out unless
        ``keep_missing``: ``base`` without an Odoo source is still a dependency).

        With ``auto_install``, also the modules Odoo would install on its own (see
        ``auto_install_expansion``), with their own dependencies.
        """
        result = self._depends_closure(names, keep_missing=keep_missing)
        return self.auto_install_expansion(result) if auto_install else result

    def auto_install_expansion(self, names: Iterable[str]) -> set[str]:
        """The installed set after Odoo adds every auto_install module whose triggers are all in
        it (repeated until nothing changes). Includes ``names`` and their dependency closure."""
        installed = self._depends_closure(names)
        changed = True
        while changed:
            changed = False
            for addon in self._sorted_addons():
                triggers = addon.manifest.auto_install_triggers
                if addon.name in installed or triggers is None or not addon.installable:
                    continue
                if triggers <= installed and all(dep in self.addons for dep in addon.depends):
                    installed |= self._depends_closure([addon.name])
                    changed = True
        return installed

    def reverse_dependencies(self, name: str, *, transitive: bool = True) -> set[str]:
        """Modules that depend on ``name`` (directly, or through others when ``transitive``)."""
        direct: dict[str, set[str]] = {}
        for addon in self.addons.values():
            for dep in addon.depends:
                direct.setdefault(dep, set()).add(addon.name)
        found: set[str] = set()
        todo = [name]
        while todo:
            for user in direct.get(todo.pop(), set()) - found:
                found.add(user)
                if transitive:
                    todo.append(user)
        found.discard(name)
        return found

    def missing_dependencies(self, names: Iterable[str] | None = None) -> dict[str, list[str]]:
        """module -> dependencies that are not found, for ``names`` and their closure (or all)."""
        scope = self.names() if names is None else sorted(self._depends_closure(names, keep_missing=True))
        missing: dict[str, list[str]] = {}
        for name in scope:
            addon = self.addons.get(name)
            absent = [dep for dep in addon.depends if dep not in self.addons] if addon else []
            if absent:
                missing[name] = absent
        return missing

    def cycles(self) -> list[list[str]]:
        """Every dependency cycle (strongly connected component of 2+ modules, or a self-loop)."""
        return find_cycles({n: [d for d in a.depends if d in self.addons] for n, a in self.addons.items()})

    def install_order(self, names: Iterable[str] | None = None) -> list[str]:
        """Dependencies before dependents (Odoo's loading order: by depth, then name).

        Modules in a cycle come last, in name order; missing dependencies are left out.
        """
        scope = set(self.addons) if names is None else self._depends_closure(names)
        depth: dict[str, int] = {}
        stuck: set[str] = set()
        depends = {n: a.depends for n, a in self.addons.items()}
        for name in sorted(scope):
            depth_of(name, depends, depth, stuck)
        ordered = sorted((n for n in scope if n not in stuck), key=lambda n: (depth[n], n))
        return ordered + sorted(scope & stuck)

    def graph_findings(self) -> list[Finding]:
        """Missing dependencies and cycles as findings (source "addons")."""
        findings: list[Finding] = []
        # Without an Odoo source, core modules (base, mail...) are never found: only a warning.
        severity: Severity = "error" if self.has_odoo_source else "warning"
        hint = "Add the module's folder to the addons path, or remove it from depends."
        if not self.has_odoo_source:
            hint += " Configure --odoo-path so core modules are known."
        for name, absent in self.missing_dependencies().items():
            findings.append(
                Finding(
                    source="addons",
                    code="missing-dependency",
                    severity=severity,
                    module=name,
                    path=self.addons[name].manifest.file,
                    message=f"{name} depends on {', '.join(absent)}, not found in the addons roots.",
                    hint=hint,
                )
            )
        for cycle in self.cycles():
            first = self.addons[cycle[0]]
            findings.append(
                Finding(
                    source="addons",
                    code="dependency-cycle",
                    module=cycle[0],
                    path=first.manifest.file,
                    message="Dependency cycle: " + " -> ".join([*cycle, cycle[0]]) + ".",
                    hint="Odoo cannot install modules that depend on each other; break the cycle.",
                )
            )
        return findings

    # -- internals -----------------------------------------------------------------------------

    def _sorted_addons(self) -> list[Addon]:
        return [self.addons[n] for n in sorted(self.addons)]

    def _depends_closure(self, names: Iterable[str], *, keep_missing: bool = False) -> set[str]:
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in seen or (name not in self.addons and not keep_missing):
                continue
            seen.add(name)
            addon = self.addons.get(name)
            if addon:
                todo.extend(addon.depends)
        return seen


def discover_addons(
    roots: Sequence[Path],
    readonly_roots: Sequence[Path] = (),
    manifests: ManifestCache | None = None,
    *,
    linked_roots: Sequence[Path] = (),
) -> AddonSet:
    """Every addon in ``roots`` then ``readonly_roots``; the first copy of a name wins.

    Pass a ``ManifestCache`` kept between calls to re-parse only the manifests that changed.
    ``linked_roots``: roots among ``roots`` that we made of links to module folders we chose
    (``migrate --prove``'s dependency closure): their links are followed wherever they point."""
    found = AddonSet(has_odoo_source=bool(readonly_roots))
    tagged = [(Path(r), False) for r in roots] + [(Path(r), True) for r in readonly_roots]
    linked = {os.path.realpath(r) for r in linked_roots}
    for root, readonly in tagged:
        real_root = Path(os.path.realpath(root))
        for module_dir in _module_dirs(real_root, follow_links=str(real_root) in linked):
            result = (
                manifests.read(module_dir, real_root) if manifests else read_manifest(module_dir, real_root)
            )
            found.findings.extend(result.findings)
            addon = Addon(module_dir.name, module_dir, real_root, readonly, result.manifest)
            kept = found.addons.get(addon.name)
            if kept is None:
                found.addons[addon.name] = addon
            else:
                found.duplicates.append(Duplicate(addon.name, kept.path, addon.path))
                found.findings.append(_duplicate_finding(addon, kept))
    return found


def odoo_core_roots(odoo_path: Path) -> list[Path]:
    """The addons folders of an Odoo source: ``odoo/addons`` (base) then ``addons`` (web, mail...)."""
    candidates = [odoo_path / "odoo" / "addons", odoo_path / "addons"]
    return [c for c in candidates if c.is_dir()]


def odoo_source_from_bin(odoo_bin: Path) -> Path | None:
    """The Odoo source next to an ``odoo-bin`` script, if it looks like one."""
    folder = Path(os.path.realpath(odoo_bin)).parent
    return folder if (folder / "odoo" / "release.py").is_file() else None


def _module_dirs(root: Path, *, follow_links: bool = False) -> list[Path]:
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    dirs = []
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        path = Path(entry.path)
        # A symlinked module is followed only while it stays inside the root (the sandbox rule).
        if entry.is_symlink() and not follow_links and not Path(os.path.realpath(path)).is_relative_to(root):
            continue
        if find_manifest_file(path) is not None:
            dirs.append(path)
    return dirs


def _duplicate_finding(addon: Addon, kept: Addon) -> Finding:
    return Finding(
        source="addons",
        code="duplicate-module",
        severity="warning",
        module=addon.name,
        path=addon.manifest.file,
        message=f"Module {addon.name} is found twice: {kept.path} is used, {addon.path} is ignored.",
        hint="Odoo takes the first copy on the addons path; remove or rename the other one.",
    )
